package entstore

import (
	"context"
	"fmt"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/ent/user"
	"github.com/dealspot/dealspot/internal/domain"
)

// DemoSocial is the demo community: people who write notes about the demo shops, like
// them and follow each other. Seed stores the people; the notes, likes and follows are
// made through the app afterwards (by the composition root), so that Redis
// holds exactly what the app derives from them — like sets, follow sets, feeds.
type DemoSocial struct {
	// Users are stored by Seed, in this order; in an empty database they get ids 1, 2, …
	Users []domain.User
	// Follows are pairs of positions in Users: follower, followed.
	Follows [][2]int
	Blogs   []DemoBlog
}

// DemoBlog is a demo note.
type DemoBlog struct {
	// Author is a position in DemoSocial.Users; Shop a position among the shops by id.
	Author int
	Shop   int
	Title  string
	// Content is the body text.
	Content string
	// LikedBy are positions in DemoSocial.Users, in the order they like the note.
	LikedBy []int
	// Rating is the note's stars for its shop (0: none).
	Rating int
	// Comments are made in order; a comment whose ReplyTo is k > 0 answers the k-th.
	Comments []DemoComment
}

// DemoComment is a demo comment on a demo note.
type DemoComment struct {
	// Author is a position in DemoSocial.Users.
	Author  int
	Content string
	// ReplyTo is the 1-based position of the note's comment it answers (0: none).
	ReplyTo int
}

// DemoSocialData returns the demo community.
func DemoSocialData() DemoSocial {
	return DemoSocial{
		Users: []domain.User{
			{Phone: "13800000001", NickName: "小鱼爱探店", Icon: "/imgs/icons/1.jpg"},
			{Phone: "13800000002", NickName: "西湖吃货", Icon: "/imgs/icons/2.jpg"},
			{Phone: "13800000003", NickName: "阿杭", Icon: "/imgs/icons/3.jpg"},
			{Phone: "13800000004", NickName: "周末不宅", Icon: "/imgs/icons/4.jpg"},
			{Phone: "13800000005", NickName: "KTV麦霸", Icon: "/imgs/icons/5.jpg"},
		},
		// 1 follows 2 and 3; 4 follows 2 and 3 too (their common follows); 2 and 3
		// follow each other; 5 follows 1.
		Follows: [][2]int{{0, 1}, {0, 2}, {3, 1}, {3, 2}, {1, 2}, {2, 1}, {4, 0}},
		Blogs: []DemoBlog{
			{Author: 1, Shop: 0, Title: "湖边的老味道", Content: "东坡肉软糯不腻，龙井虾仁很鲜，靠窗能看到西湖。周末要排队，建议早点来。", LikedBy: []int{0, 2, 3, 4}, Rating: 5,
				Comments: []DemoComment{{Author: 0, Content: "东坡肉确实好吃！"}, {Author: 1, Content: "对，早点去不用排队", ReplyTo: 1}, {Author: 3, Content: "收藏了，周末去"}}},
			{Author: 2, Shop: 1, Title: "下班后的一顿酸菜鱼", Content: "鱼片很嫩，酸菜够味，两个人点一份刚好。", LikedBy: []int{0, 1, 3}, Rating: 4,
				Comments: []DemoComment{{Author: 2, Content: "辣度怎么样？"}, {Author: 2, Content: "微辣刚好", ReplyTo: 1}}},
			{Author: 1, Shop: 2, Title: "雨天也想出门的理由", Content: "环境安静，适合一个人慢慢吃，服务也周到。", LikedBy: []int{3, 4}, Rating: 4},
			{Author: 2, Shop: 3, Title: "性价比之选", Content: "人均不到八十，分量足，味道稳定。", LikedBy: []int{1}, Rating: 3},
			{Author: 4, Shop: 4, Title: "唱到凌晨也不累", Content: "包厢干净，音响好，小吃拼盘居然挺好吃。", LikedBy: []int{0, 2}, Rating: 5,
				Comments: []DemoComment{{Author: 0, Content: "下次带上我！"}}},
			{Author: 0, Shop: 5, Title: "第一次来就爱上了", Content: "朋友推荐的店，果然没让人失望，下次还来。", LikedBy: []int{1, 2, 3}},
		},
	}
}

// seedUsers stores the demo community's people, unless one of their phones is taken.
func seedUsers(ctx context.Context, client *ent.Client) error {
	demo := DemoSocialData()
	phones := make([]string, len(demo.Users))
	for i, u := range demo.Users {
		phones[i] = u.Phone
	}
	taken, err := client.User.Query().Where(user.PhoneIn(phones...)).Count(ctx)
	if err != nil {
		return fmt.Errorf("look up demo users: %w", err)
	}
	if taken > 0 {
		return nil
	}
	for _, u := range demo.Users {
		if _, err := client.User.Create().SetPhone(u.Phone).SetNickName(u.NickName).SetIcon(u.Icon).
			SetRole(user.RoleUSER).Save(ctx); err != nil {
			return fmt.Errorf("create demo user %s: %w", u.NickName, err)
		}
	}
	return nil
}
