package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/dealspot/dealspot/internal/app/search"
)

// The data set is made of Hangzhou's restaurant vocabulary: shops are a brand, a kind of
// food and a branch; notes are phrases of reviews strung together.
var (
	brands = strings.Fields(`海底捞 外婆家 绿茶 新白鹿 弄堂里 老娘舅 知味观 楼外楼 奎元馆 蜀大侠 小龙坎 太二 西贝
		望湘园 南京大牌档 避风塘 点都德 鹿港小镇 翠华 巴奴 大龙燚 杨国福 张亮 喜茶 奈雪 一点点 星巴克 瑞幸
		必胜客 肯德基 麦当劳 汉堡王 赛百味 萨莉亚 味千 吉野家 鼎泰丰 小杨生煎 沈记 胖哥俩 金牌 阿五 解百
		湖滨 胜利 新丰 四季 天香楼 山外山 江南 钱塘 西溪 龙井 锅里 馋猫 老街 鲜满 福满楼 兰州 重庆 成都`)
	foods = strings.Fields(`火锅 茶餐厅 面馆 烧烤 咖啡 甜品 奶茶 日料 烤肉 小吃 酒吧 川菜 湘菜 粤菜 西餐 自助餐 海鲜
		饺子馆 酸菜鱼 麻辣烫 生煎 拉面 米线 烤鱼 串串 私房菜 料理 披萨 汉堡 粥铺`)
	areas = strings.Fields(`湖滨 武林 西溪 滨江 拱宸桥 大关 城西 下沙 钱江新城 黄龙 文三路 庆春 南宋御街 河坊街 龙井
		九堡 萧山 余杭 临平 北山街 古墩路 紫金港 申花 丁桥 三墩 良渚 闲林 转塘 之江 笕桥`)
	streets = strings.Fields(`延安路 文二路 上塘路 莫干山路 解放路 体育场路 凤起路 中山路 天目山路 教工路 学院路 古翠路
		丰潭路 文一西路 江南大道 滨盛路 秋涛路 建国路 环城北路 湖墅南路`)
	// The words of reviews, the most common first.
	phrases = strings.Fields(`好吃 推荐 环境不错 服务热情 性价比高 周末 味道正宗 打卡 口感很好 分量足 价格实惠 和朋友
		要排队 招牌菜 必点 一般般 很惊艳 会再来 适合聚餐 适合约会 可以带娃 停车方便 地铁站附近 老板很热情 上菜很快
		第一次来 第二次来 带爸妈 下午茶 夜宵 早餐 排了半小时 不用排队 有包间 靠窗的位置 音乐很吵 很安静 装修很有特色
		食材新鲜 偏咸 偏甜 有点辣 不辣 微辣 特辣 份量偏小 甜品一般 饮料免费续杯 会员打折 团购划算
		菠萝油 牛腩面 小笼包 生煎包 东坡肉 西湖醋鱼 龙井虾仁 叫花鸡 片儿川 葱包桧 定胜糕 酸菜鱼 毛肚 鸭血
		虾滑 肥牛 冻柠茶 丝袜奶茶 菠萝包 叉烧饭 烤串 羊肉串 拿铁 美式 芝士蛋糕 提拉米苏 寿司 拉面 天妇罗 烤鳗鱼`)
	// Dishes are a way of cooking and an ingredient: the rare words of reviews.
	methods     = strings.Fields(`红烧 清蒸 干锅 香辣 糖醋 酱爆 椒盐 水煮 铁板 黄焖 葱油 蒜蓉 剁椒 卤味 白切 孜然`)
	ingredients = strings.Fields(`排骨 牛肉 鸡翅 豆腐 茄子 土豆 虾仁 鱼片 羊排 猪蹄 鸭舌 花甲 鱿鱼 牛蛙 肥肠 藕片 鸡爪 带鱼 鳜鱼 春笋`)
	nicks       = strings.Fields(`小鱼 西湖 吃货 阿杭 周末 不宅 麦霸 老饕 猫猫 阿狸 胖虎 大熊 小白 糯米 团子 芒果 柠檬 奶茶
		咖啡 火锅 探店 美食 旅行 日记 达人 爱吃 小王 小李 老张 阿强`)
)

type shopRow struct{ name, area, address string }

type noteRow struct{ title, content string }

type dataset struct {
	seed  uint64
	shops []shopRow
	notes []noteRow
	users []string
}

func generate(o options) *dataset {
	r := rand.New(rand.NewPCG(o.seed, 1))
	pick := func(l []string) string { return l[r.IntN(len(l))] }
	d := &dataset{seed: o.seed}
	for range o.shops {
		area := pick(areas)
		d.shops = append(d.shops, shopRow{
			name:    pick(brands) + pick(foods) + "(" + area + "店)",
			area:    area,
			address: fmt.Sprintf("%s%s%d号", area, pick(streets), 1+r.IntN(999)),
		})
	}
	// Words are drawn by Zipf's law: a few are in most notes, most in few.
	words := slices.Clone(phrases)
	for _, m := range methods {
		for _, in := range ingredients {
			words = append(words, m+in)
		}
	}
	zipf := rand.NewZipf(r, 1.2, 4, uint64(len(words)-1))
	sentence := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(words[zipf.Uint64()])
			switch {
			case i == n-1:
				b.WriteString("。")
			case r.IntN(3) == 0:
				b.WriteString("，")
			}
		}
		return b.String()
	}
	for range o.notes {
		d.notes = append(d.notes, noteRow{title: sentence(2 + r.IntN(2)), content: sentence(15 + r.IntN(40))})
	}
	for range o.users {
		d.users = append(d.users, pick(nicks)+pick(nicks)+pick(nicks))
	}
	return d
}

func (d *dataset) meanNoteRunes() float64 {
	if len(d.notes) == 0 {
		return 0
	}
	total := 0
	for _, n := range d.notes {
		total += utf8.RuneCountInString(n.content)
	}
	return float64(total) / float64(len(d.notes))
}

// queryKind is a kind of query the flood sends, with the texts it draws from.
type queryKind struct {
	name   string
	kind   search.Kind
	byName bool
	texts  []string
}

// queryKinds are the flood's queries, drawn in equal shares: words of notes (common,
// less common, rare; two of them), shop names (their start, whole, with a typo, by
// shops(name:)), addresses and nicknames.
func (d *dataset) queryKinds() []queryKind {
	typo := func(s string) string {
		rs := []rune(s)
		rs[len(rs)/2] = '一'
		return string(rs)
	}
	var starts, names, typos, dishes, rare, common, pairs, streetsAreas, nickParts []string
	for _, b := range brands {
		if utf8.RuneCountInString(b) >= 2 {
			starts = append(starts, string([]rune(b)[:2]))
		}
	}
	for i, b := range brands {
		f := foods[i%len(foods)]
		names = append(names, b+f)
		typos = append(typos, typo(b+f))
	}
	for _, p := range phrases[:12] {
		if utf8.RuneCountInString(p) == 2 {
			common = append(common, p)
		}
	}
	for _, p := range phrases[len(phrases)-30:] {
		if utf8.RuneCountInString(p) == 3 {
			dishes = append(dishes, p)
		}
	}
	for i, m := range methods {
		rare = append(rare, m+ingredients[(i*7)%len(ingredients)])
	}
	for i := range 20 {
		pairs = append(pairs, phrases[i%12]+" "+phrases[12+(i*7)%30])
	}
	for i := range streets {
		streetsAreas = append(streetsAreas, areas[i%len(areas)]+" "+streets[i])
	}
	nickParts = append(nickParts, nicks...)
	return []queryKind{
		{name: "notes: a common word of two (好吃)", kind: search.KindNote, texts: common},
		{name: "notes: a word of three (牛腩面)", kind: search.KindNote, texts: dishes},
		{name: "notes: a rare dish (红烧排骨)", kind: search.KindNote, texts: rare},
		{name: "notes: two words (周末 要排队)", kind: search.KindNote, texts: pairs},
		{name: "shops: a name's first two characters", kind: search.KindShop, texts: starts},
		{name: "shops: a brand and its food (海底捞火锅)", kind: search.KindShop, texts: names},
		{name: "shops: the same with a typo", kind: search.KindShop, texts: typos},
		{name: "shops: an area and a street", kind: search.KindShop, texts: streetsAreas},
		{name: "shops(name:): a brand and its food", kind: search.KindShop, byName: true, texts: names},
		{name: "people: a nickname's word", kind: search.KindUser, texts: nickParts},
	}
}
