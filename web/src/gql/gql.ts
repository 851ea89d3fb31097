/* eslint-disable */
import * as types from './graphql';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "mutation Refresh($t: String!) { refreshToken(token: $t) { accessToken refreshToken user { id nickName role } } }": typeof types.RefreshDocument,
    "query DealsNearby($lon: Float!, $lat: Float!, $r: Int, $sort: DealSort, $a: String) {\n  dealsNearby(longitude: $lon, latitude: $lat, radius: $r, sort: $sort, first: 10, after: $a) {\n    edges { node { distanceMeters discount beginsAt endsAt secondsLeft remainingStock live\n      voucher { id title payValue actualValue kind favoritedByMe remindedByMe }\n      shop { id name area score images { url } } } }\n    pageInfo { hasNextPage endCursor } } }": typeof types.DealsNearbyDocument,
    "query MyFavorites($a: String) { myFavorites(first: 20, after: $a) {\n  edges { node { id createdAt\n    shop { id name area avgPrice score comments images { url } favoritedByMe favoriteCount }\n    voucher { id title payValue actualValue kind endTime favoritedByMe shop { id name } } } }\n  pageInfo { hasNextPage endCursor } } }": typeof types.MyFavoritesDocument,
    "query UnreadCount { unreadNotificationCount }": typeof types.UnreadCountDocument,
    "subscription NotificationAdded { notificationAdded { id } }": typeof types.NotificationAddedDocument,
    "fragment NotificationItem on Notification { id kind createdAt updatedAt read actorCount text\n  actor { id nickName icon } blog { id title } order { id } voucher { id title beginTime shop { id name } } }": typeof types.NotificationItemFragmentDoc,
    "query Notifications($a: String, $unread: Boolean) {\n  notifications(first: 20, after: $a, unreadOnly: $unread) { edges { node { ...NotificationItem } } pageInfo { hasNextPage endCursor } } }": typeof types.NotificationsDocument,
    "mutation MarkNotificationsRead($upTo: ID) { markNotificationsRead(upTo: $upTo) }": typeof types.MarkNotificationsReadDocument,
    "query NotificationSettings { notificationSettings { likes comments follows orders followedNotes shopSales } }": typeof types.NotificationSettingsDocument,
    "mutation UpdateNotificationSettings($in: NotificationSettingsInput!) {\n  updateNotificationSettings(input: $in) { likes comments follows orders followedNotes shopSales } }": typeof types.UpdateNotificationSettingsDocument,
    "mutation Logout{ logout }": typeof types.LogoutDocument,
    "mutation SendLoginCode($p: String!) { sendLoginCode(phone: $p) { sent devCode } }": typeof types.SendLoginCodeDocument,
    "mutation Login($p: String!, $c: String!) { login(phone: $p, code: $c) { accessToken refreshToken user { id nickName role } } }": typeof types.LoginDocument,
    "fragment ShopItem on Shop { id name area avgPrice score comments images { url } }": typeof types.ShopItemFragmentDoc,
    "query ShopTypes { shopTypes { id name icon } }": typeof types.ShopTypesDocument,
    "query NearbyMine($t: ID!, $lon: Float!, $lat: Float!, $a: String) {\n        nearbyShops(typeId: $t, longitude: $lon, latitude: $lat, first: 10, after: $a) {\n          edges { distanceMeters node { ...ShopItem favoritedByMe favoriteCount } } pageInfo { hasNextPage endCursor } } }": typeof types.NearbyMineDocument,
    "query Nearby($t: ID!, $lon: Float!, $lat: Float!, $a: String) {\n        nearbyShops(typeId: $t, longitude: $lon, latitude: $lat, first: 10, after: $a) {\n          edges { distanceMeters node { ...ShopItem } } pageInfo { hasNextPage endCursor } } }": typeof types.NearbyDocument,
    "query ShopsMine($t: ID, $n: String, $a: String) { shops(typeId: $t, name: $n, first: 10, after: $a) {\n        edges { node { ...ShopItem favoritedByMe favoriteCount } } pageInfo { hasNextPage endCursor } } }": typeof types.ShopsMineDocument,
    "query Shops($t: ID, $n: String, $a: String) { shops(typeId: $t, name: $n, first: 10, after: $a) {\n        edges { node { ...ShopItem } } pageInfo { hasNextPage endCursor } } }": typeof types.ShopsDocument,
    "query Shop($id: ID!) { shop(id: $id) { id name address avgPrice score comments images { url width height } openHours type { name }\n      favoritedByMe favoriteCount\n      vouchers { id title payValue actualValue kind stock beginTime endTime favoritedByMe remindedByMe reminderCount }\n      blogs(first: 5) { edges { node { id title rating likedCount author { nickName } } } } } }": typeof types.ShopDocument,
    "subscription SaleProgress($v: ID!) { saleProgress(voucherId: $v) { remaining soldOut phase } }": typeof types.SaleProgressDocument,
    "subscription OrderStatus($o: ID!) { orderStatus(orderId: $o) { orderId status reason } }": typeof types.OrderStatusDocument,
    "query Order($o: ID!) { order(id: $o) { redemptionCode } }": typeof types.OrderDocument,
    "mutation ClaimVoucher($v: ID!) { claimVoucher(voucherId: $v) { orderId status } }": typeof types.ClaimVoucherDocument,
    "mutation JoinWaitlist($v: ID!) { joinWaitlist(voucherId: $v) { id status position } }": typeof types.JoinWaitlistDocument,
    "mutation PayOrder($o: ID!) { payOrder(orderId: $o) { id status } }": typeof types.PayOrderDocument,
    "mutation CancelOrder($o: ID!) { cancelOrder(orderId: $o) { status } }": typeof types.CancelOrderDocument,
    "query MyOrders($s: [OrderStatus!]) { myOrders(status: $s, first: 20) { edges { node { id status amount voucher { title } shop { name } redemptionCode } } } }": typeof types.MyOrdersDocument,
    "query MySales { myShops { id name vouchers { id title kind stock beginTime endTime reminderCount } } }": typeof types.MySalesDocument,
    "mutation CreateFlashSale($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }": typeof types.CreateFlashSaleDocument,
    "subscription SaleStats($v: ID!) { saleStats(voucherId: $v) {\n      remaining accepted pending created paid used canceled failed claimsPerSecond at } }": typeof types.SaleStatsDocument,
    "fragment NoteItem on Blog { id title rating likedCount commentCount author { nickName } shop { name } }": typeof types.NoteItemFragmentDoc,
    "query FeedPage($a: String) { page: feed(first: 10, after: $a) { edges { node { ...NoteItem } } pageInfo { hasNextPage endCursor } } }": typeof types.FeedPageDocument,
    "query HotPage($a: String) { page: hotBlogs(first: 10, after: $a) { edges { node { ...NoteItem } } pageInfo { hasNextPage endCursor } } }": typeof types.HotPageDocument,
    "mutation Follow($u: ID!) { follow(userId: $u) }": typeof types.FollowDocument,
    "mutation LikeBlog($id: ID!) { likeBlog(id: $id) { id } }": typeof types.LikeBlogDocument,
    "mutation UnlikeBlog($id: ID!) { unlikeBlog(id: $id) { id } }": typeof types.UnlikeBlogDocument,
    "mutation Unfollow($u: ID!) { unfollow(userId: $u) }": typeof types.UnfollowDocument,
    "query Blog($id: ID!) { blog(id: $id) { id title content images { url width height } rating likedCount likedByMe\n      author { id nickName icon isFollowedByMe } shop { id name }\n      comments(first: 20) { edges { node { id content author { nickName } replies(first: 5) { edges { node { id content author { nickName } replyToUser { nickName } } } } } } } }\n      blogLikers(blogId: $id) { nickName } }": typeof types.BlogDocument,
    "mutation CreateComment($b: ID!, $c: String!) { createComment(blogId: $b, content: $c) { id } }": typeof types.CreateCommentDocument,
    "mutation UploadImage($f: Upload!) { uploadImage(file: $f) { url } }": typeof types.UploadImageDocument,
    "mutation CreateBlog($in: CreateBlogInput!) { createBlog(input: $in) { id } }": typeof types.CreateBlogDocument,
    "query SignInStatus { signInStatus { month signedDays consecutiveDays } }": typeof types.SignInStatusDocument,
    "mutation SignIn{ signIn { month } }": typeof types.SignInDocument,
    "query Search($q: String!, $kind: SearchKind!, $a: String) {\n  search(query: $q, kind: $kind, first: 10, after: $a) {\n    edges { node { score snippet\n      shop { id name area avgPrice score images { url } }\n      note { id title likedCount author { nickName } shop { name } }\n      user { id nickName icon } } }\n    pageInfo { hasNextPage endCursor } } }": typeof types.SearchDocument,
    "mutation FavoriteShop($id: ID!) { mark: favoriteShop(shopId: $id) { id favoritedByMe favoriteCount } }": typeof types.FavoriteShopDocument,
    "mutation UnfavoriteShop($id: ID!) { mark: unfavoriteShop(shopId: $id) { id favoritedByMe favoriteCount } }": typeof types.UnfavoriteShopDocument,
    "mutation FavoriteVoucher($id: ID!) { mark: favoriteVoucher(voucherId: $id) { id favoritedByMe } }": typeof types.FavoriteVoucherDocument,
    "mutation UnfavoriteVoucher($id: ID!) { mark: unfavoriteVoucher(voucherId: $id) { id favoritedByMe } }": typeof types.UnfavoriteVoucherDocument,
    "mutation RemindMe($id: ID!) { mark: remindMe(voucherId: $id) { id remindedByMe reminderCount } }": typeof types.RemindMeDocument,
    "mutation CancelReminder($id: ID!) { mark: cancelReminder(voucherId: $id) { id remindedByMe reminderCount } }": typeof types.CancelReminderDocument,
    "query MyWaitlist { myWaitlist { id voucherId status position joinedAt offer { offeredAt expiresAt }\n  voucher { id title payValue actualValue shop { id name } } } }": typeof types.MyWaitlistDocument,
    "mutation AcceptOffer($v: ID!) { acceptOffer(voucherId: $v) { id status } }": typeof types.AcceptOfferDocument,
    "mutation DeclineOffer($v: ID!) { declineOffer(voucherId: $v) }": typeof types.DeclineOfferDocument,
    "mutation LeaveWaitlist($v: ID!) { leaveWaitlist(voucherId: $v) }": typeof types.LeaveWaitlistDocument,
};
const documents: Documents = {
    "mutation Refresh($t: String!) { refreshToken(token: $t) { accessToken refreshToken user { id nickName role } } }": types.RefreshDocument,
    "query DealsNearby($lon: Float!, $lat: Float!, $r: Int, $sort: DealSort, $a: String) {\n  dealsNearby(longitude: $lon, latitude: $lat, radius: $r, sort: $sort, first: 10, after: $a) {\n    edges { node { distanceMeters discount beginsAt endsAt secondsLeft remainingStock live\n      voucher { id title payValue actualValue kind favoritedByMe remindedByMe }\n      shop { id name area score images { url } } } }\n    pageInfo { hasNextPage endCursor } } }": types.DealsNearbyDocument,
    "query MyFavorites($a: String) { myFavorites(first: 20, after: $a) {\n  edges { node { id createdAt\n    shop { id name area avgPrice score comments images { url } favoritedByMe favoriteCount }\n    voucher { id title payValue actualValue kind endTime favoritedByMe shop { id name } } } }\n  pageInfo { hasNextPage endCursor } } }": types.MyFavoritesDocument,
    "query UnreadCount { unreadNotificationCount }": types.UnreadCountDocument,
    "subscription NotificationAdded { notificationAdded { id } }": types.NotificationAddedDocument,
    "fragment NotificationItem on Notification { id kind createdAt updatedAt read actorCount text\n  actor { id nickName icon } blog { id title } order { id } voucher { id title beginTime shop { id name } } }": types.NotificationItemFragmentDoc,
    "query Notifications($a: String, $unread: Boolean) {\n  notifications(first: 20, after: $a, unreadOnly: $unread) { edges { node { ...NotificationItem } } pageInfo { hasNextPage endCursor } } }": types.NotificationsDocument,
    "mutation MarkNotificationsRead($upTo: ID) { markNotificationsRead(upTo: $upTo) }": types.MarkNotificationsReadDocument,
    "query NotificationSettings { notificationSettings { likes comments follows orders followedNotes shopSales } }": types.NotificationSettingsDocument,
    "mutation UpdateNotificationSettings($in: NotificationSettingsInput!) {\n  updateNotificationSettings(input: $in) { likes comments follows orders followedNotes shopSales } }": types.UpdateNotificationSettingsDocument,
    "mutation Logout{ logout }": types.LogoutDocument,
    "mutation SendLoginCode($p: String!) { sendLoginCode(phone: $p) { sent devCode } }": types.SendLoginCodeDocument,
    "mutation Login($p: String!, $c: String!) { login(phone: $p, code: $c) { accessToken refreshToken user { id nickName role } } }": types.LoginDocument,
    "fragment ShopItem on Shop { id name area avgPrice score comments images { url } }": types.ShopItemFragmentDoc,
    "query ShopTypes { shopTypes { id name icon } }": types.ShopTypesDocument,
    "query NearbyMine($t: ID!, $lon: Float!, $lat: Float!, $a: String) {\n        nearbyShops(typeId: $t, longitude: $lon, latitude: $lat, first: 10, after: $a) {\n          edges { distanceMeters node { ...ShopItem favoritedByMe favoriteCount } } pageInfo { hasNextPage endCursor } } }": types.NearbyMineDocument,
    "query Nearby($t: ID!, $lon: Float!, $lat: Float!, $a: String) {\n        nearbyShops(typeId: $t, longitude: $lon, latitude: $lat, first: 10, after: $a) {\n          edges { distanceMeters node { ...ShopItem } } pageInfo { hasNextPage endCursor } } }": types.NearbyDocument,
    "query ShopsMine($t: ID, $n: String, $a: String) { shops(typeId: $t, name: $n, first: 10, after: $a) {\n        edges { node { ...ShopItem favoritedByMe favoriteCount } } pageInfo { hasNextPage endCursor } } }": types.ShopsMineDocument,
    "query Shops($t: ID, $n: String, $a: String) { shops(typeId: $t, name: $n, first: 10, after: $a) {\n        edges { node { ...ShopItem } } pageInfo { hasNextPage endCursor } } }": types.ShopsDocument,
    "query Shop($id: ID!) { shop(id: $id) { id name address avgPrice score comments images { url width height } openHours type { name }\n      favoritedByMe favoriteCount\n      vouchers { id title payValue actualValue kind stock beginTime endTime favoritedByMe remindedByMe reminderCount }\n      blogs(first: 5) { edges { node { id title rating likedCount author { nickName } } } } } }": types.ShopDocument,
    "subscription SaleProgress($v: ID!) { saleProgress(voucherId: $v) { remaining soldOut phase } }": types.SaleProgressDocument,
    "subscription OrderStatus($o: ID!) { orderStatus(orderId: $o) { orderId status reason } }": types.OrderStatusDocument,
    "query Order($o: ID!) { order(id: $o) { redemptionCode } }": types.OrderDocument,
    "mutation ClaimVoucher($v: ID!) { claimVoucher(voucherId: $v) { orderId status } }": types.ClaimVoucherDocument,
    "mutation JoinWaitlist($v: ID!) { joinWaitlist(voucherId: $v) { id status position } }": types.JoinWaitlistDocument,
    "mutation PayOrder($o: ID!) { payOrder(orderId: $o) { id status } }": types.PayOrderDocument,
    "mutation CancelOrder($o: ID!) { cancelOrder(orderId: $o) { status } }": types.CancelOrderDocument,
    "query MyOrders($s: [OrderStatus!]) { myOrders(status: $s, first: 20) { edges { node { id status amount voucher { title } shop { name } redemptionCode } } } }": types.MyOrdersDocument,
    "query MySales { myShops { id name vouchers { id title kind stock beginTime endTime reminderCount } } }": types.MySalesDocument,
    "mutation CreateFlashSale($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }": types.CreateFlashSaleDocument,
    "subscription SaleStats($v: ID!) { saleStats(voucherId: $v) {\n      remaining accepted pending created paid used canceled failed claimsPerSecond at } }": types.SaleStatsDocument,
    "fragment NoteItem on Blog { id title rating likedCount commentCount author { nickName } shop { name } }": types.NoteItemFragmentDoc,
    "query FeedPage($a: String) { page: feed(first: 10, after: $a) { edges { node { ...NoteItem } } pageInfo { hasNextPage endCursor } } }": types.FeedPageDocument,
    "query HotPage($a: String) { page: hotBlogs(first: 10, after: $a) { edges { node { ...NoteItem } } pageInfo { hasNextPage endCursor } } }": types.HotPageDocument,
    "mutation Follow($u: ID!) { follow(userId: $u) }": types.FollowDocument,
    "mutation LikeBlog($id: ID!) { likeBlog(id: $id) { id } }": types.LikeBlogDocument,
    "mutation UnlikeBlog($id: ID!) { unlikeBlog(id: $id) { id } }": types.UnlikeBlogDocument,
    "mutation Unfollow($u: ID!) { unfollow(userId: $u) }": types.UnfollowDocument,
    "query Blog($id: ID!) { blog(id: $id) { id title content images { url width height } rating likedCount likedByMe\n      author { id nickName icon isFollowedByMe } shop { id name }\n      comments(first: 20) { edges { node { id content author { nickName } replies(first: 5) { edges { node { id content author { nickName } replyToUser { nickName } } } } } } } }\n      blogLikers(blogId: $id) { nickName } }": types.BlogDocument,
    "mutation CreateComment($b: ID!, $c: String!) { createComment(blogId: $b, content: $c) { id } }": types.CreateCommentDocument,
    "mutation UploadImage($f: Upload!) { uploadImage(file: $f) { url } }": types.UploadImageDocument,
    "mutation CreateBlog($in: CreateBlogInput!) { createBlog(input: $in) { id } }": types.CreateBlogDocument,
    "query SignInStatus { signInStatus { month signedDays consecutiveDays } }": types.SignInStatusDocument,
    "mutation SignIn{ signIn { month } }": types.SignInDocument,
    "query Search($q: String!, $kind: SearchKind!, $a: String) {\n  search(query: $q, kind: $kind, first: 10, after: $a) {\n    edges { node { score snippet\n      shop { id name area avgPrice score images { url } }\n      note { id title likedCount author { nickName } shop { name } }\n      user { id nickName icon } } }\n    pageInfo { hasNextPage endCursor } } }": types.SearchDocument,
    "mutation FavoriteShop($id: ID!) { mark: favoriteShop(shopId: $id) { id favoritedByMe favoriteCount } }": types.FavoriteShopDocument,
    "mutation UnfavoriteShop($id: ID!) { mark: unfavoriteShop(shopId: $id) { id favoritedByMe favoriteCount } }": types.UnfavoriteShopDocument,
    "mutation FavoriteVoucher($id: ID!) { mark: favoriteVoucher(voucherId: $id) { id favoritedByMe } }": types.FavoriteVoucherDocument,
    "mutation UnfavoriteVoucher($id: ID!) { mark: unfavoriteVoucher(voucherId: $id) { id favoritedByMe } }": types.UnfavoriteVoucherDocument,
    "mutation RemindMe($id: ID!) { mark: remindMe(voucherId: $id) { id remindedByMe reminderCount } }": types.RemindMeDocument,
    "mutation CancelReminder($id: ID!) { mark: cancelReminder(voucherId: $id) { id remindedByMe reminderCount } }": types.CancelReminderDocument,
    "query MyWaitlist { myWaitlist { id voucherId status position joinedAt offer { offeredAt expiresAt }\n  voucher { id title payValue actualValue shop { id name } } } }": types.MyWaitlistDocument,
    "mutation AcceptOffer($v: ID!) { acceptOffer(voucherId: $v) { id status } }": types.AcceptOfferDocument,
    "mutation DeclineOffer($v: ID!) { declineOffer(voucherId: $v) }": types.DeclineOfferDocument,
    "mutation LeaveWaitlist($v: ID!) { leaveWaitlist(voucherId: $v) }": types.LeaveWaitlistDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation Refresh($t: String!) { refreshToken(token: $t) { accessToken refreshToken user { id nickName role } } }"): typeof import('./graphql').RefreshDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query DealsNearby($lon: Float!, $lat: Float!, $r: Int, $sort: DealSort, $a: String) {\n  dealsNearby(longitude: $lon, latitude: $lat, radius: $r, sort: $sort, first: 10, after: $a) {\n    edges { node { distanceMeters discount beginsAt endsAt secondsLeft remainingStock live\n      voucher { id title payValue actualValue kind favoritedByMe remindedByMe }\n      shop { id name area score images { url } } } }\n    pageInfo { hasNextPage endCursor } } }"): typeof import('./graphql').DealsNearbyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query MyFavorites($a: String) { myFavorites(first: 20, after: $a) {\n  edges { node { id createdAt\n    shop { id name area avgPrice score comments images { url } favoritedByMe favoriteCount }\n    voucher { id title payValue actualValue kind endTime favoritedByMe shop { id name } } } }\n  pageInfo { hasNextPage endCursor } } }"): typeof import('./graphql').MyFavoritesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query UnreadCount { unreadNotificationCount }"): typeof import('./graphql').UnreadCountDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "subscription NotificationAdded { notificationAdded { id } }"): typeof import('./graphql').NotificationAddedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment NotificationItem on Notification { id kind createdAt updatedAt read actorCount text\n  actor { id nickName icon } blog { id title } order { id } voucher { id title beginTime shop { id name } } }"): typeof import('./graphql').NotificationItemFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Notifications($a: String, $unread: Boolean) {\n  notifications(first: 20, after: $a, unreadOnly: $unread) { edges { node { ...NotificationItem } } pageInfo { hasNextPage endCursor } } }"): typeof import('./graphql').NotificationsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation MarkNotificationsRead($upTo: ID) { markNotificationsRead(upTo: $upTo) }"): typeof import('./graphql').MarkNotificationsReadDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query NotificationSettings { notificationSettings { likes comments follows orders followedNotes shopSales } }"): typeof import('./graphql').NotificationSettingsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UpdateNotificationSettings($in: NotificationSettingsInput!) {\n  updateNotificationSettings(input: $in) { likes comments follows orders followedNotes shopSales } }"): typeof import('./graphql').UpdateNotificationSettingsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation Logout{ logout }"): typeof import('./graphql').LogoutDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation SendLoginCode($p: String!) { sendLoginCode(phone: $p) { sent devCode } }"): typeof import('./graphql').SendLoginCodeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation Login($p: String!, $c: String!) { login(phone: $p, code: $c) { accessToken refreshToken user { id nickName role } } }"): typeof import('./graphql').LoginDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment ShopItem on Shop { id name area avgPrice score comments images { url } }"): typeof import('./graphql').ShopItemFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ShopTypes { shopTypes { id name icon } }"): typeof import('./graphql').ShopTypesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query NearbyMine($t: ID!, $lon: Float!, $lat: Float!, $a: String) {\n        nearbyShops(typeId: $t, longitude: $lon, latitude: $lat, first: 10, after: $a) {\n          edges { distanceMeters node { ...ShopItem favoritedByMe favoriteCount } } pageInfo { hasNextPage endCursor } } }"): typeof import('./graphql').NearbyMineDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Nearby($t: ID!, $lon: Float!, $lat: Float!, $a: String) {\n        nearbyShops(typeId: $t, longitude: $lon, latitude: $lat, first: 10, after: $a) {\n          edges { distanceMeters node { ...ShopItem } } pageInfo { hasNextPage endCursor } } }"): typeof import('./graphql').NearbyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ShopsMine($t: ID, $n: String, $a: String) { shops(typeId: $t, name: $n, first: 10, after: $a) {\n        edges { node { ...ShopItem favoritedByMe favoriteCount } } pageInfo { hasNextPage endCursor } } }"): typeof import('./graphql').ShopsMineDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Shops($t: ID, $n: String, $a: String) { shops(typeId: $t, name: $n, first: 10, after: $a) {\n        edges { node { ...ShopItem } } pageInfo { hasNextPage endCursor } } }"): typeof import('./graphql').ShopsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Shop($id: ID!) { shop(id: $id) { id name address avgPrice score comments images { url width height } openHours type { name }\n      favoritedByMe favoriteCount\n      vouchers { id title payValue actualValue kind stock beginTime endTime favoritedByMe remindedByMe reminderCount }\n      blogs(first: 5) { edges { node { id title rating likedCount author { nickName } } } } } }"): typeof import('./graphql').ShopDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "subscription SaleProgress($v: ID!) { saleProgress(voucherId: $v) { remaining soldOut phase } }"): typeof import('./graphql').SaleProgressDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "subscription OrderStatus($o: ID!) { orderStatus(orderId: $o) { orderId status reason } }"): typeof import('./graphql').OrderStatusDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Order($o: ID!) { order(id: $o) { redemptionCode } }"): typeof import('./graphql').OrderDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ClaimVoucher($v: ID!) { claimVoucher(voucherId: $v) { orderId status } }"): typeof import('./graphql').ClaimVoucherDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation JoinWaitlist($v: ID!) { joinWaitlist(voucherId: $v) { id status position } }"): typeof import('./graphql').JoinWaitlistDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation PayOrder($o: ID!) { payOrder(orderId: $o) { id status } }"): typeof import('./graphql').PayOrderDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CancelOrder($o: ID!) { cancelOrder(orderId: $o) { status } }"): typeof import('./graphql').CancelOrderDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query MyOrders($s: [OrderStatus!]) { myOrders(status: $s, first: 20) { edges { node { id status amount voucher { title } shop { name } redemptionCode } } } }"): typeof import('./graphql').MyOrdersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query MySales { myShops { id name vouchers { id title kind stock beginTime endTime reminderCount } } }"): typeof import('./graphql').MySalesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateFlashSale($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }"): typeof import('./graphql').CreateFlashSaleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "subscription SaleStats($v: ID!) { saleStats(voucherId: $v) {\n      remaining accepted pending created paid used canceled failed claimsPerSecond at } }"): typeof import('./graphql').SaleStatsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment NoteItem on Blog { id title rating likedCount commentCount author { nickName } shop { name } }"): typeof import('./graphql').NoteItemFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query FeedPage($a: String) { page: feed(first: 10, after: $a) { edges { node { ...NoteItem } } pageInfo { hasNextPage endCursor } } }"): typeof import('./graphql').FeedPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query HotPage($a: String) { page: hotBlogs(first: 10, after: $a) { edges { node { ...NoteItem } } pageInfo { hasNextPage endCursor } } }"): typeof import('./graphql').HotPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation Follow($u: ID!) { follow(userId: $u) }"): typeof import('./graphql').FollowDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation LikeBlog($id: ID!) { likeBlog(id: $id) { id } }"): typeof import('./graphql').LikeBlogDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UnlikeBlog($id: ID!) { unlikeBlog(id: $id) { id } }"): typeof import('./graphql').UnlikeBlogDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation Unfollow($u: ID!) { unfollow(userId: $u) }"): typeof import('./graphql').UnfollowDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Blog($id: ID!) { blog(id: $id) { id title content images { url width height } rating likedCount likedByMe\n      author { id nickName icon isFollowedByMe } shop { id name }\n      comments(first: 20) { edges { node { id content author { nickName } replies(first: 5) { edges { node { id content author { nickName } replyToUser { nickName } } } } } } } }\n      blogLikers(blogId: $id) { nickName } }"): typeof import('./graphql').BlogDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateComment($b: ID!, $c: String!) { createComment(blogId: $b, content: $c) { id } }"): typeof import('./graphql').CreateCommentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UploadImage($f: Upload!) { uploadImage(file: $f) { url } }"): typeof import('./graphql').UploadImageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateBlog($in: CreateBlogInput!) { createBlog(input: $in) { id } }"): typeof import('./graphql').CreateBlogDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query SignInStatus { signInStatus { month signedDays consecutiveDays } }"): typeof import('./graphql').SignInStatusDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation SignIn{ signIn { month } }"): typeof import('./graphql').SignInDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Search($q: String!, $kind: SearchKind!, $a: String) {\n  search(query: $q, kind: $kind, first: 10, after: $a) {\n    edges { node { score snippet\n      shop { id name area avgPrice score images { url } }\n      note { id title likedCount author { nickName } shop { name } }\n      user { id nickName icon } } }\n    pageInfo { hasNextPage endCursor } } }"): typeof import('./graphql').SearchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation FavoriteShop($id: ID!) { mark: favoriteShop(shopId: $id) { id favoritedByMe favoriteCount } }"): typeof import('./graphql').FavoriteShopDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UnfavoriteShop($id: ID!) { mark: unfavoriteShop(shopId: $id) { id favoritedByMe favoriteCount } }"): typeof import('./graphql').UnfavoriteShopDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation FavoriteVoucher($id: ID!) { mark: favoriteVoucher(voucherId: $id) { id favoritedByMe } }"): typeof import('./graphql').FavoriteVoucherDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UnfavoriteVoucher($id: ID!) { mark: unfavoriteVoucher(voucherId: $id) { id favoritedByMe } }"): typeof import('./graphql').UnfavoriteVoucherDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RemindMe($id: ID!) { mark: remindMe(voucherId: $id) { id remindedByMe reminderCount } }"): typeof import('./graphql').RemindMeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CancelReminder($id: ID!) { mark: cancelReminder(voucherId: $id) { id remindedByMe reminderCount } }"): typeof import('./graphql').CancelReminderDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query MyWaitlist { myWaitlist { id voucherId status position joinedAt offer { offeredAt expiresAt }\n  voucher { id title payValue actualValue shop { id name } } } }"): typeof import('./graphql').MyWaitlistDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation AcceptOffer($v: ID!) { acceptOffer(voucherId: $v) { id status } }"): typeof import('./graphql').AcceptOfferDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation DeclineOffer($v: ID!) { declineOffer(voucherId: $v) }"): typeof import('./graphql').DeclineOfferDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation LeaveWaitlist($v: ID!) { leaveWaitlist(voucherId: $v) }"): typeof import('./graphql').LeaveWaitlistDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
