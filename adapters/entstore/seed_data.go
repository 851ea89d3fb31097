package entstore

// Demo data for a fresh database: the shop categories of the original hmdp project and
// shops at real places in Hangzhou, so nearby search and paging have something to show.

// seedType is a shop category; shops refer to it by its position in seedShopTypes,
// counting from 1.
type seedType struct {
	name string
	icon string
	sort int
	// brands are chain names for generated shops of this category.
	brands []string
	// priceLo and priceHi bound the average spend per person, in yuan.
	priceLo, priceHi int
	openHours        []string
	// generated is how many shops of this category are made up from brands.
	generated int
	// voucher is the normal voucher some shops of this category sell.
	voucher seedVoucher
}

// seedPlace is a shopping centre or street that generated shops are spread around.
type seedPlace struct {
	area    string // business district shown to users
	branch  string // used in branch names: 外婆家(湖滨银泰in77店)
	address string
	// street places get a house number; the others, shopping centres, a floor.
	street bool
	lon    float64
	lat    float64
}

// seedShop is a hand-written shop; avgPrice is in yuan.
type seedShop struct {
	typeNo    int
	name      string
	area      string
	address   string
	lon       float64
	lat       float64
	avgPrice  int64
	sold      int
	comments  int
	score     int
	openHours string
}

// seedVoucher is a voucher template; values are in cents.
type seedVoucher struct {
	title, subTitle, rules string
	payValue, actualValue  int64
}

const foodRules = "全场通用\n无需预约\n可无限叠加\n不兑现、不找零\n仅限堂食"

var seedShopTypes = []seedType{
	{
		name: "美食", icon: "/types/ms.png", sort: 1,
		brands:  []string{"外婆家", "绿茶餐厅", "弄堂里", "知味观", "新白鹿餐厅", "太二酸菜鱼", "西贝莜面村", "老头儿油爆虾"},
		priceLo: 50, priceHi: 160, openHours: []string{"10:00-22:00", "10:30-21:00", "11:00-21:30", "11:00-14:00,17:00-21:00"},
		generated: 8,
		voucher:   seedVoucher{"50元代金券", "周一至周日均可使用", foodRules, 4750, 5000},
	},
	{
		name: "KTV", icon: "/types/KTV.png", sort: 2,
		brands:  []string{"麦乐迪KTV", "温莎KTV", "唱吧麦颂KTV", "纯K"},
		priceLo: 50, priceHi: 120, openHours: []string{"12:00-02:00", "11:30-06:00", "00:00-24:00"},
		generated: 4,
		voucher:   seedVoucher{"欢唱3小时", "小包 周一至周五 18:00前", "需提前预约\n含小吃拼盘一份\n不兑现、不找零", 6800, 12800},
	},
	{
		name: "丽人·美发", icon: "/types/lrmf.png", sort: 3,
		brands:  []string{"永琪美容美发", "审美造型", "星剪造型", "丝域养发", "东田造型"},
		priceLo: 60, priceHi: 300, openHours: []string{"10:00-22:00", "09:30-21:30"},
		generated: 6,
		voucher:   seedVoucher{"洗剪吹套餐", "资深设计师 不限男女", "需提前1天预约\n不可与其他优惠同享", 6800, 12800},
	},
	{
		name: "健身运动", icon: "/types/jsyd.png", sort: 10,
		brands:  []string{"乐刻运动", "威尔士健身", "超级猩猩", "舒适堡健身", "瑜伽生活馆", "岩时攀岩"},
		priceLo: 40, priceHi: 200, openHours: []string{"06:00-23:00", "00:00-24:00", "07:00-22:00"},
		generated: 6,
		voucher:   seedVoucher{"单次体验课", "含教练指导与淋浴", "需提前预约\n每人限购一次", 2900, 9900},
	},
	{
		name: "按摩·足疗", icon: "/types/amzl.png", sort: 5,
		brands:  []string{"华夏良子", "御足堂", "一品足道", "康骏会馆", "泰式古法按摩"},
		priceLo: 100, priceHi: 260, openHours: []string{"11:00-02:00", "12:00-01:00"},
		generated: 6,
		voucher:   seedVoucher{"中式足疗60分钟", "含泡脚与肩颈放松", "需提前预约\n节假日通用", 9800, 16800},
	},
	{
		name: "美容SPA", icon: "/types/spa.png", sort: 6,
		brands:  []string{"思妍丽", "美丽田园", "悦颜美肤SPA", "自然美", "初颜皮肤管理"},
		priceLo: 200, priceHi: 600, openHours: []string{"10:00-21:00", "10:30-22:00"},
		generated: 6,
		voucher:   seedVoucher{"深层清洁护理", "90分钟 首次体验", "需提前2天预约\n每人限用一次", 19800, 39800},
	},
	{
		name: "亲子游乐", icon: "/types/qzyl.png", sort: 7,
		brands:  []string{"奈尔宝家庭中心", "汤姆熊欢乐世界", "淘气堡儿童乐园", "萌宠乐园", "蹦床公园"},
		priceLo: 80, priceHi: 220, openHours: []string{"10:00-21:00", "09:30-21:30"},
		generated: 6,
		voucher:   seedVoucher{"一大一小畅玩票", "周一至周五可用", "需一名成人陪同\n不含餐饮", 12800, 19800},
	},
	{
		name: "酒吧", icon: "/types/jiuba.png", sort: 8,
		brands:  []string{"胡桃里音乐酒馆", "海伦司小酒馆", "贰麻酒馆", "精酿啤酒屋", "蓝调爵士酒吧"},
		priceLo: 60, priceHi: 220, openHours: []string{"19:00-02:00", "18:00-03:00"},
		generated: 6,
		voucher:   seedVoucher{"精酿畅饮套餐", "2人 含小食一份", "不兑现、不找零\n未成年人禁止饮酒", 9900, 16800},
	},
	{
		name: "轰趴馆", icon: "/types/hpg.png", sort: 9,
		brands:  []string{"轰趴星球", "欢乐聚轰趴馆", "剧本杀推理馆", "狼人杀桌游馆", "电竞轰趴馆"},
		priceLo: 80, priceHi: 200, openHours: []string{"10:00-24:00", "12:00-06:00"},
		generated: 6,
		voucher:   seedVoucher{"8人白天场", "10:00-18:00 含零食饮料", "需提前3天预约\n超时另计", 88800, 128800},
	},
	{
		name: "美睫·美甲", icon: "/types/mjmj.png", sort: 4,
		brands:  []string{"小甲美甲", "美睫工坊", "甲时光", "指尖艺术美甲", "睫毛精灵"},
		priceLo: 80, priceHi: 260, openHours: []string{"10:00-21:00", "10:30-22:00"},
		generated: 6,
		voucher:   seedVoucher{"单色美甲", "不限款式 含手部护理", "需提前预约\n卸甲另计", 5900, 12800},
	},
}

// seedFeaturedShops come first, so the first shop is 103茶餐厅 as in the original
// project; coordinates are those the original seeds use.
var seedFeaturedShops = []seedShop{
	{1, "103茶餐厅", "大关", "金华路锦昌文华苑29号", 120.149192, 30.316078, 80, 4215, 3035, 37, "10:00-22:00"},
	{1, "蔡馬洪涛烤肉·老北京铜锅涮羊肉", "拱宸桥/上塘", "上塘路1035号（中国工商银行旁）", 120.151505, 30.333422, 85, 2160, 1460, 46, "11:30-03:00"},
	{1, "新白鹿餐厅(运河上街店)", "运河上街", "台州路2号运河上街购物中心F5", 120.151954, 30.32497, 61, 12035, 8045, 47, "10:30-21:00"},
	{1, "Mamala(杭州远洋乐堤港店)", "拱宸桥/上塘", "丽水路66号远洋乐堤港商城2期1层B115号", 120.146659, 30.312742, 290, 13519, 9529, 49, "11:00-22:00"},
	{1, "海底捞火锅(水晶城购物中心店)", "大关", "上塘路458号水晶城购物中心F6", 120.15778, 30.310633, 104, 4125, 2764, 49, "10:00-07:00"},
	{1, "幸福里老北京涮锅(丝联店)", "拱宸桥/上塘", "金华南路189号丝联166号", 120.148603, 30.318618, 130, 9531, 7324, 46, "11:00-13:50,17:00-20:50"},
	{1, "炉鱼(拱墅万达广场店)", "北部新城", "杭行路666号万达商业中心4幢2单元409室", 120.124691, 30.336819, 85, 2631, 1320, 47, "00:00-24:00"},
	{1, "浅草屋寿司(运河上街店)", "运河上街", "金华路80号运河上街B1", 120.150526, 30.325231, 88, 2406, 1206, 46, "11:00-21:30"},
	{1, "羊老三羊蝎子牛仔排北派炭火锅(运河上街店)", "运河上街", "台州路2号运河上街购物中心F5", 120.150598, 30.325251, 101, 2763, 1363, 44, "11:00-21:30"},
	{2, "开乐迪KTV(运河上街店)", "运河上街", "台州路2号运河上街购物中心F4", 120.149093, 30.324666, 67, 26891, 902, 37, "00:00-24:00"},
	{2, "INLOVE KTV(水晶城店)", "水晶城", "上塘路458号水晶城购物中心6层", 120.15853, 30.310002, 75, 35977, 5684, 47, "11:30-06:00"},
	{2, "魅(杭州远洋乐堤港店)", "远洋乐堤港", "丽水路58号远洋乐堤港F4", 120.14983, 30.31211, 88, 6444, 235, 46, "10:00-02:00"},
	{2, "讴K拉量贩KTV(北城天地店)", "北城天地", "湖州街567号北城天地5层", 120.130453, 30.327655, 58, 18997, 1857, 41, "12:00-02:00"},
	{2, "星聚会KTV(拱墅区万达店)", "北部新城", "杭行路666号万达广场C座1-2F", 120.128958, 30.337252, 60, 17771, 685, 47, "10:00-22:00"},
}

// seedPlaces are where generated shops open their branches, from the canal in the north
// to Binjiang south of the Qiantang river.
var seedPlaces = []seedPlace{
	{"运河上街", "运河上街", "台州路2号运河上街购物中心", false, 120.1515, 30.3250},
	{"远洋乐堤港", "远洋乐堤港", "丽水路58号远洋乐堤港", false, 120.1478, 30.3124},
	{"大关", "水晶城", "上塘路458号水晶城购物中心", false, 120.1580, 30.3104},
	{"拱宸桥/上塘", "拱宸桥", "桥弄街", true, 120.1428, 30.3203},
	{"北部新城", "拱墅万达", "杭行路666号万达广场", false, 120.1275, 30.3370},
	{"北城天地", "北城天地", "湖州街567号北城天地", false, 120.1305, 30.3277},
	{"武林", "武林银泰", "延安路530号武林银泰", false, 120.1651, 30.2722},
	{"武林", "杭州大厦", "武林广场1号杭州大厦", false, 120.1660, 30.2768},
	{"湖滨", "湖滨银泰in77", "延安路258号湖滨银泰in77", false, 120.1636, 30.2577},
	{"西湖", "西湖天地", "南山路147号西湖天地", false, 120.1588, 30.2486},
	{"河坊街", "清河坊", "河坊街", true, 120.1702, 30.2441},
	{"黄龙", "黄龙体育中心", "黄龙路1号黄龙体育中心", false, 120.1367, 30.2699},
	{"城西", "城西银泰城", "丰潭路380号城西银泰城", false, 120.1104, 30.2931},
	{"庆春", "庆春银泰", "景昙路18号庆春银泰", false, 120.1958, 30.2609},
	{"滨江", "滨江天街", "江汉路1515号龙湖滨江天街", false, 120.2115, 30.2087},
	{"滨江", "星光大道", "江南大道228号星光国际广场", false, 120.2093, 30.2092},
}

// seedFloors are appended to the addresses of shops in shopping centres.
var seedFloors = []string{"B1", "1F", "2F", "3F", "4F", "5F"}

// seedFlashSale is the flash-sale voucher of the first shop; it opens an hour before
// seeding and runs for a week, so a fresh server has a live sale.
var seedFlashSale = seedVoucher{"100元代金券", "周一至周日均可使用", foodRules, 8000, 10000}

// seedFlashSaleStock is the stock of seedFlashSale.
const seedFlashSaleStock = 100

// seedUpcomingFlashSale opens a day after seeding on the first KTV shop, so clients can
// see a sale that has not started.
var seedUpcomingFlashSale = seedVoucher{"午夜场欢唱券", "大包 不限时段", "需提前预约\n不兑现、不找零", 9900, 29900}

// seedUpcomingFlashSaleStock is the stock of seedUpcomingFlashSale.
const seedUpcomingFlashSaleStock = 50
