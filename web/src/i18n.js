// Chinese and English text; the language follows the browser until the user picks one.
const text = {
  zh: {
    shops: '商户', orders: '我的订单', login: '登录', logout: '退出', phone: '手机号', sendCode: '获取验证码',
    code: '验证码', devCode: '开发模式验证码', signIn: '登录', more: '加载更多', search: '按名称搜索',
    allTypes: '全部', vouchers: '优惠券', notes: '探店笔记', claim: '立即抢购', startsIn: '距开始',
    started: '进行中', ended: '已结束', left: '剩余', pay: '去支付', cancel: '取消订单', code2: '核销码',
    status: '状态', score: '评分', reviews: '条评价', perPerson: '人均', loginFirst: '请先登录',
    SOLD_OUT: '已抢光', ALREADY_CLAIMED: '你已经抢到过了', RATE_LIMITED: '请求太频繁，请稍后再试',
    NOT_STARTED: '还没开始', ENDED: '已经结束', UNAUTHENTICATED: '请先登录', CONFLICT: '订单状态已变化',
    PENDING: '排队中', CREATED: '待支付', PAID: '已支付', USED: '已使用', CANCELED: '已取消', REFUNDED: '已退款', FAILED: '失败',
    none: '暂无', yuan: '元',
    board: '秒杀看板', newSale: '发布秒杀', shopId: '商户 ID', title: '标题', price: '秒杀价（元）', worth: '原价（元）',
    stock: '库存', buckets: '分桶数', startsInSeconds: '几秒后开始', create: '发布',
    s_remaining: '剩余', s_accepted: '已抢', s_pending: '排队中', s_created: '待支付', s_paid: '已支付', s_used: '已核销',
    s_canceled: '已取消', s_rate: '每秒下单',
    feed: '关注', hot: '热门', write: '写笔记', follow: '关注', unfollow: '取消关注', comments: '评论', comment: '评论',
    send: '发送', content: '正文', rating: '评分', photo: '照片', publish: '发布', signInDaily: '签到', streak: '连续签到',
    signInToday: '今日签到', now: '现在', nearMe: '附近', around: '位置', guessed: '未获得定位，按市中心', openHours: '营业时间',
  },
  en: {
    shops: 'Shops', orders: 'My orders', login: 'Log in', logout: 'Log out', phone: 'Phone', sendCode: 'Send code',
    code: 'Code', devCode: 'Dev-mode code', signIn: 'Log in', more: 'Load more', search: 'Search by name',
    allTypes: 'All', vouchers: 'Vouchers', notes: 'Notes', claim: 'Claim now', startsIn: 'Starts in',
    started: 'On now', ended: 'Ended', left: 'left', pay: 'Pay', cancel: 'Cancel order', code2: 'Redemption code',
    status: 'Status', score: 'Score', reviews: 'reviews', perPerson: 'per person', loginFirst: 'Log in first',
    SOLD_OUT: 'Sold out', ALREADY_CLAIMED: 'You already have one', RATE_LIMITED: 'Too many requests, try again shortly',
    NOT_STARTED: 'Not started yet', ENDED: 'Already over', UNAUTHENTICATED: 'Log in first', CONFLICT: 'The order changed meanwhile',
    PENDING: 'Queued', CREATED: 'Awaiting payment', PAID: 'Paid', USED: 'Used', CANCELED: 'Canceled', REFUNDED: 'Refunded', FAILED: 'Failed',
    none: 'None yet', yuan: 'CNY',
    board: 'Sale board', newSale: 'New flash sale', shopId: 'Shop id', title: 'Title', price: 'Price (CNY)', worth: 'Worth (CNY)',
    stock: 'Stock', buckets: 'Buckets', startsInSeconds: 'Starts in (seconds)', create: 'Publish',
    s_remaining: 'Remaining', s_accepted: 'Claimed', s_pending: 'Queued', s_created: 'Awaiting payment', s_paid: 'Paid', s_used: 'Redeemed',
    s_canceled: 'Canceled', s_rate: 'Orders per second',
    feed: 'Following', hot: 'Hot', write: 'Write a note', follow: 'Follow', unfollow: 'Unfollow', comments: 'Comments',
    comment: 'Comment', send: 'Send', content: 'Text', rating: 'Rating', photo: 'Photo', publish: 'Publish',
    signInDaily: 'Sign in', streak: 'Days in a row', signInToday: 'Sign in today', now: 'now',
    nearMe: 'Near me', around: 'Around', guessed: 'no location given: the city center', openHours: 'Open',
  },
};

export let lang = localStorage.getItem('lang') || ((navigator.language || 'zh').startsWith('en') ? 'en' : 'zh');
export function setLang(l) { lang = l; localStorage.setItem('lang', l); document.documentElement.lang = l === 'zh' ? 'zh-CN' : 'en'; }
export const t = (key) => text[lang][key] ?? key;
