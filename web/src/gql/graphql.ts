/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type CreateBlogInput = {
  /** At most 5000 characters. */
  content: string;
  /**
   * At most 9 image paths or URLs, without commas or spaces: https URLs of other sites (not
   * checked), or paths of this site that serve an image — an uploadImage url not deleted,
   * or a demo picture; BAD_USER_INPUT names one that does not.
   */
  images: Array<string>;
  /** A 1–5 star rating of the shop; it moves the shop's score and review count. */
  rating?: number | null | undefined;
  shopId: string;
  /** At most 80 characters. */
  title: string;
};

export type CreateFlashSaleInput = {
  actualValue: number;
  beginTime: string;
  /**
   * How many parts the sale's stock is split into, each on its own Redis shard: 1 (the
   * default) to SECKILL_SHARDS, and at most stock. Set at creation only.
   */
  buckets?: number | null | undefined;
  endTime: string;
  payValue: number;
  rules?: string | null | undefined;
  shopId: string;
  stock: number;
  subtitle?: string | null | undefined;
  title: string;
};

/** The order of dealsNearby; each ends with the voucher id, so it is total. */
export type DealSort =
  /** Largest discount (actualValue − payValue) first. */
  | 'DISCOUNT'
  /** Nearest shop first. */
  | 'DISTANCE'
  /** The flash sale that ends first first; normal vouchers, which do not end, last. */
  | 'ENDING_SOON'
  /** The shop's best rating first. */
  | 'SCORE';

/** What a notification tells. */
export type NotificationKind =
  /** People commented on the caller's note (replies included). */
  | 'BLOG_COMMENTED'
  /** People liked the caller's note. */
  | 'BLOG_LIKED'
  /** People replied to the caller's comment. */
  | 'COMMENT_REPLIED'
  /** People started following the caller. */
  | 'FOLLOWED'
  /** An author the caller follows published a note (only with the followedNotes setting on). */
  | 'FOLLOWED_NOTE'
  /** The caller's order was canceled because it was not paid in time. */
  | 'ORDER_EXPIRED'
  /** The caller's order is still unpaid and will be canceled soon (ORDER_EXPIRY_WARNING_BEFORE, 5 minutes, before its pay deadline). */
  | 'ORDER_EXPIRY_WARNING'
  /** The caller's order was paid: its redemption code is ready. */
  | 'ORDER_PAID'
  /** The caller's order was refunded. */
  | 'ORDER_REFUNDED'
  /** A flash sale the caller asked to be reminded of (remindMe) begins within SALE_REMINDER_BEFORE (5m). */
  | 'SALE_REMINDER'
  /** A shop the caller marked as a favourite put a new flash sale on. */
  | 'SHOP_NEW_SALE'
  /** A returned unit of a sale the caller waits for is held for the caller (see myWaitlist, acceptOffer). */
  | 'WAITLIST_OFFER';

/** Settings to change; those left out stay as they are. */
export type NotificationSettingsInput = {
  comments?: boolean | null | undefined;
  followedNotes?: boolean | null | undefined;
  follows?: boolean | null | undefined;
  likes?: boolean | null | undefined;
  orders?: boolean | null | undefined;
  shopSales?: boolean | null | undefined;
};

/** Where an order is in its life. */
export type OrderStatus =
  /** Canceled by the buyer or because the pay deadline passed; a flash sale's unit went back to the sale. */
  | 'CANCELED'
  /** The order exists. */
  | 'CREATED'
  /** The order could not be written; its stock went back. */
  | 'FAILED'
  /** Paid: the redemption code can be shown at the shop. */
  | 'PAID'
  /** Claimed: the order is being written. */
  | 'PENDING'
  /** Paid, then refunded; a flash sale's unit went back to the sale. */
  | 'REFUNDED'
  /** Redeemed at the shop. */
  | 'USED';

export type PaymentStatus =
  | 'FAILED'
  /** Created at the provider, waiting for its notification. */
  | 'PENDING'
  | 'REFUNDED'
  /** The money is going back; the provider has not confirmed yet. */
  | 'REFUND_PENDING'
  | 'SUCCEEDED';

/** What a user may do. */
export type Role =
  | 'ADMIN'
  /** Runs the shops it owns: their vouchers, sales, orders and redemptions. */
  | 'MERCHANT'
  | 'USER';

/** Where a flash sale stands in its window. */
export type SalePhase =
  /** At or after endTime. */
  | 'ENDED'
  /** Between beginTime and endTime. */
  | 'LIVE'
  /** Before beginTime. */
  | 'UPCOMING';

/** What a search looks for. */
export type SearchKind =
  /** Notes, by title and content. */
  | 'NOTE'
  /** Shops, by name, area and address. */
  | 'SHOP'
  /** People, by nickname. */
  | 'USER';

export type VoucherKind =
  | 'FLASH_SALE'
  | 'NORMAL';

/** Where the caller's place in a sale's waitlist stands. */
export type WaitlistStatus =
  /** A returned unit is held for the caller (offer): acceptOffer claims it, declineOffer passes it on. */
  | 'OFFERED'
  /** In line. */
  | 'WAITING';

export type RefreshMutationVariables = Exact<{
  t: string;
}>;


export type RefreshMutation = { refreshToken: { accessToken: string, refreshToken: string, user: { id: string, nickName: string, role: Role | null } } };

export type DealsNearbyQueryVariables = Exact<{
  lon: number;
  lat: number;
  r?: number | null | undefined;
  sort?: DealSort | null | undefined;
  a?: string | null | undefined;
}>;


export type DealsNearbyQuery = { dealsNearby: { edges: Array<{ node: { distanceMeters: number, discount: number, beginsAt: string | null, endsAt: string | null, secondsLeft: number | null, remainingStock: number | null, live: boolean, voucher: { id: string, title: string, payValue: number, actualValue: number, kind: VoucherKind, favoritedByMe: boolean, remindedByMe: boolean }, shop: { id: string, name: string, area: string, score: number, images: Array<{ url: string }> } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type MyFavoritesQueryVariables = Exact<{
  a?: string | null | undefined;
}>;


export type MyFavoritesQuery = { myFavorites: { edges: Array<{ node: { id: string, createdAt: string, shop: { id: string, name: string, area: string, avgPrice: number, score: number, comments: number, favoritedByMe: boolean, favoriteCount: number, images: Array<{ url: string }> } | null, voucher: { id: string, title: string, payValue: number, actualValue: number, kind: VoucherKind, endTime: string | null, favoritedByMe: boolean, shop: { id: string, name: string } } | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type UnreadCountQueryVariables = Exact<{ [key: string]: never; }>;


export type UnreadCountQuery = { unreadNotificationCount: number };

export type NotificationAddedSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type NotificationAddedSubscription = { notificationAdded: { id: string } };

export type NotificationItemFragment = { id: string, kind: NotificationKind, createdAt: string, updatedAt: string, read: boolean, actorCount: number, text: string, actor: { id: string, nickName: string, icon: string } | null, blog: { id: string, title: string } | null, order: { id: string } | null, voucher: { id: string, title: string, beginTime: string | null, shop: { id: string, name: string } } | null };

export type NotificationsQueryVariables = Exact<{
  a?: string | null | undefined;
  unread?: boolean | null | undefined;
}>;


export type NotificationsQuery = { notifications: { edges: Array<{ node: { id: string, kind: NotificationKind, createdAt: string, updatedAt: string, read: boolean, actorCount: number, text: string, actor: { id: string, nickName: string, icon: string } | null, blog: { id: string, title: string } | null, order: { id: string } | null, voucher: { id: string, title: string, beginTime: string | null, shop: { id: string, name: string } } | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type MarkNotificationsReadMutationVariables = Exact<{
  upTo?: string | null | undefined;
}>;


export type MarkNotificationsReadMutation = { markNotificationsRead: number };

export type NotificationSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type NotificationSettingsQuery = { notificationSettings: { likes: boolean, comments: boolean, follows: boolean, orders: boolean, followedNotes: boolean, shopSales: boolean } };

export type UpdateNotificationSettingsMutationVariables = Exact<{
  in: NotificationSettingsInput;
}>;


export type UpdateNotificationSettingsMutation = { updateNotificationSettings: { likes: boolean, comments: boolean, follows: boolean, orders: boolean, followedNotes: boolean, shopSales: boolean } };

export type LogoutMutationVariables = Exact<{ [key: string]: never; }>;


export type LogoutMutation = { logout: boolean };

export type SendLoginCodeMutationVariables = Exact<{
  p: string;
}>;


export type SendLoginCodeMutation = { sendLoginCode: { sent: boolean, devCode: string | null } };

export type LoginMutationVariables = Exact<{
  p: string;
  c: string;
}>;


export type LoginMutation = { login: { accessToken: string, refreshToken: string, user: { id: string, nickName: string, role: Role | null } } };

export type ShopItemFragment = { id: string, name: string, area: string, avgPrice: number, score: number, comments: number, images: Array<{ url: string }> };

export type ShopTypesQueryVariables = Exact<{ [key: string]: never; }>;


export type ShopTypesQuery = { shopTypes: Array<{ id: string, name: string, icon: string }> };

export type NearbyMineQueryVariables = Exact<{
  t: string;
  lon: number;
  lat: number;
  a?: string | null | undefined;
}>;


export type NearbyMineQuery = { nearbyShops: { edges: Array<{ distanceMeters: number | null, node: { favoritedByMe: boolean, favoriteCount: number, id: string, name: string, area: string, avgPrice: number, score: number, comments: number, images: Array<{ url: string }> } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type NearbyQueryVariables = Exact<{
  t: string;
  lon: number;
  lat: number;
  a?: string | null | undefined;
}>;


export type NearbyQuery = { nearbyShops: { edges: Array<{ distanceMeters: number | null, node: { id: string, name: string, area: string, avgPrice: number, score: number, comments: number, images: Array<{ url: string }> } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ShopsMineQueryVariables = Exact<{
  t?: string | null | undefined;
  n?: string | null | undefined;
  a?: string | null | undefined;
}>;


export type ShopsMineQuery = { shops: { edges: Array<{ node: { favoritedByMe: boolean, favoriteCount: number, id: string, name: string, area: string, avgPrice: number, score: number, comments: number, images: Array<{ url: string }> } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ShopsQueryVariables = Exact<{
  t?: string | null | undefined;
  n?: string | null | undefined;
  a?: string | null | undefined;
}>;


export type ShopsQuery = { shops: { edges: Array<{ node: { id: string, name: string, area: string, avgPrice: number, score: number, comments: number, images: Array<{ url: string }> } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ShopQueryVariables = Exact<{
  id: string;
}>;


export type ShopQuery = { shop: { id: string, name: string, address: string, avgPrice: number, score: number, comments: number, openHours: string, favoritedByMe: boolean, favoriteCount: number, images: Array<{ url: string, width: number | null, height: number | null }>, type: { name: string } | null, vouchers: Array<{ id: string, title: string, payValue: number, actualValue: number, kind: VoucherKind, stock: number | null, beginTime: string | null, endTime: string | null, favoritedByMe: boolean, remindedByMe: boolean, reminderCount: number | null }>, blogs: { edges: Array<{ node: { id: string, title: string, rating: number | null, likedCount: number, author: { nickName: string } } }> } } | null };

export type SaleProgressSubscriptionVariables = Exact<{
  v: string;
}>;


export type SaleProgressSubscription = { saleProgress: { remaining: number, soldOut: boolean, phase: SalePhase } };

export type OrderStatusSubscriptionVariables = Exact<{
  o: string;
}>;


export type OrderStatusSubscription = { orderStatus: { orderId: string, status: OrderStatus, reason: string | null } };

export type OrderQueryVariables = Exact<{
  o: string;
}>;


export type OrderQuery = { order: { redemptionCode: string | null } | null };

export type ClaimVoucherMutationVariables = Exact<{
  v: string;
}>;


export type ClaimVoucherMutation = { claimVoucher: { orderId: string, status: OrderStatus } };

export type JoinWaitlistMutationVariables = Exact<{
  v: string;
}>;


export type JoinWaitlistMutation = { joinWaitlist: { id: string, status: WaitlistStatus, position: number | null } };

export type PayOrderMutationVariables = Exact<{
  o: string;
}>;


export type PayOrderMutation = { payOrder: { id: string, status: PaymentStatus } };

export type CancelOrderMutationVariables = Exact<{
  o: string;
}>;


export type CancelOrderMutation = { cancelOrder: { status: OrderStatus } };

export type MyOrdersQueryVariables = Exact<{
  s?: Array<OrderStatus> | OrderStatus | null | undefined;
}>;


export type MyOrdersQuery = { myOrders: { edges: Array<{ node: { id: string, status: OrderStatus, amount: number, redemptionCode: string | null, voucher: { title: string }, shop: { name: string } } }> } };

export type MySalesQueryVariables = Exact<{ [key: string]: never; }>;


export type MySalesQuery = { myShops: Array<{ id: string, name: string, vouchers: Array<{ id: string, title: string, kind: VoucherKind, stock: number | null, beginTime: string | null, endTime: string | null, reminderCount: number | null }> }> };

export type CreateFlashSaleMutationVariables = Exact<{
  in: CreateFlashSaleInput;
}>;


export type CreateFlashSaleMutation = { createFlashSale: { id: string } };

export type SaleStatsSubscriptionVariables = Exact<{
  v: string;
}>;


export type SaleStatsSubscription = { saleStats: { remaining: number, accepted: number, pending: number, created: number, paid: number, used: number, canceled: number, failed: number, claimsPerSecond: number, at: string } };

export type NoteItemFragment = { id: string, title: string, rating: number | null, likedCount: number, commentCount: number, author: { nickName: string }, shop: { name: string } | null };

export type FeedPageQueryVariables = Exact<{
  a?: string | null | undefined;
}>;


export type FeedPageQuery = { page: { edges: Array<{ node: { id: string, title: string, rating: number | null, likedCount: number, commentCount: number, author: { nickName: string }, shop: { name: string } | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type HotPageQueryVariables = Exact<{
  a?: string | null | undefined;
}>;


export type HotPageQuery = { page: { edges: Array<{ node: { id: string, title: string, rating: number | null, likedCount: number, commentCount: number, author: { nickName: string }, shop: { name: string } | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type FollowMutationVariables = Exact<{
  u: string;
}>;


export type FollowMutation = { follow: boolean };

export type LikeBlogMutationVariables = Exact<{
  id: string;
}>;


export type LikeBlogMutation = { likeBlog: { id: string } };

export type UnlikeBlogMutationVariables = Exact<{
  id: string;
}>;


export type UnlikeBlogMutation = { unlikeBlog: { id: string } };

export type UnfollowMutationVariables = Exact<{
  u: string;
}>;


export type UnfollowMutation = { unfollow: boolean };

export type BlogQueryVariables = Exact<{
  id: string;
}>;


export type BlogQuery = { blog: { id: string, title: string, content: string, rating: number | null, likedCount: number, likedByMe: boolean, images: Array<{ url: string, width: number | null, height: number | null }>, author: { id: string, nickName: string, icon: string, isFollowedByMe: boolean }, shop: { id: string, name: string } | null, comments: { edges: Array<{ node: { id: string, content: string, author: { nickName: string }, replies: { edges: Array<{ node: { id: string, content: string, author: { nickName: string }, replyToUser: { nickName: string } | null } }> } } }> } } | null, blogLikers: Array<{ nickName: string }> };

export type CreateCommentMutationVariables = Exact<{
  b: string;
  c: string;
}>;


export type CreateCommentMutation = { createComment: { id: string } };

export type UploadImageMutationVariables = Exact<{
  f: File;
}>;


export type UploadImageMutation = { uploadImage: { url: string } };

export type CreateBlogMutationVariables = Exact<{
  in: CreateBlogInput;
}>;


export type CreateBlogMutation = { createBlog: { id: string } };

export type SignInStatusQueryVariables = Exact<{ [key: string]: never; }>;


export type SignInStatusQuery = { signInStatus: { month: string, signedDays: Array<number>, consecutiveDays: number } };

export type SignInMutationVariables = Exact<{ [key: string]: never; }>;


export type SignInMutation = { signIn: { month: string } };

export type SearchQueryVariables = Exact<{
  q: string;
  kind: SearchKind;
  a?: string | null | undefined;
}>;


export type SearchQuery = { search: { edges: Array<{ node: { score: number, snippet: string, shop: { id: string, name: string, area: string, avgPrice: number, score: number, images: Array<{ url: string }> } | null, note: { id: string, title: string, likedCount: number, author: { nickName: string }, shop: { name: string } | null } | null, user: { id: string, nickName: string, icon: string } | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type FavoriteShopMutationVariables = Exact<{
  id: string;
}>;


export type FavoriteShopMutation = { mark: { id: string, favoritedByMe: boolean, favoriteCount: number } };

export type UnfavoriteShopMutationVariables = Exact<{
  id: string;
}>;


export type UnfavoriteShopMutation = { mark: { id: string, favoritedByMe: boolean, favoriteCount: number } };

export type FavoriteVoucherMutationVariables = Exact<{
  id: string;
}>;


export type FavoriteVoucherMutation = { mark: { id: string, favoritedByMe: boolean } };

export type UnfavoriteVoucherMutationVariables = Exact<{
  id: string;
}>;


export type UnfavoriteVoucherMutation = { mark: { id: string, favoritedByMe: boolean } };

export type RemindMeMutationVariables = Exact<{
  id: string;
}>;


export type RemindMeMutation = { mark: { id: string, remindedByMe: boolean, reminderCount: number | null } };

export type CancelReminderMutationVariables = Exact<{
  id: string;
}>;


export type CancelReminderMutation = { mark: { id: string, remindedByMe: boolean, reminderCount: number | null } };

export type MyWaitlistQueryVariables = Exact<{ [key: string]: never; }>;


export type MyWaitlistQuery = { myWaitlist: Array<{ id: string, voucherId: string, status: WaitlistStatus, position: number | null, joinedAt: string, offer: { offeredAt: string, expiresAt: string } | null, voucher: { id: string, title: string, payValue: number, actualValue: number, shop: { id: string, name: string } } }> };

export type AcceptOfferMutationVariables = Exact<{
  v: string;
}>;


export type AcceptOfferMutation = { acceptOffer: { id: string, status: OrderStatus } };

export type DeclineOfferMutationVariables = Exact<{
  v: string;
}>;


export type DeclineOfferMutation = { declineOffer: boolean };

export type LeaveWaitlistMutationVariables = Exact<{
  v: string;
}>;


export type LeaveWaitlistMutation = { leaveWaitlist: boolean };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const NotificationItemFragmentDoc = new TypedDocumentString(`
    fragment NotificationItem on Notification {
  id
  kind
  createdAt
  updatedAt
  read
  actorCount
  text
  actor {
    id
    nickName
    icon
  }
  blog {
    id
    title
  }
  order {
    id
  }
  voucher {
    id
    title
    beginTime
    shop {
      id
      name
    }
  }
}
    `, {"fragmentName":"NotificationItem"}) as unknown as TypedDocumentString<NotificationItemFragment, unknown>;
export const ShopItemFragmentDoc = new TypedDocumentString(`
    fragment ShopItem on Shop {
  id
  name
  area
  avgPrice
  score
  comments
  images {
    url
  }
}
    `, {"fragmentName":"ShopItem"}) as unknown as TypedDocumentString<ShopItemFragment, unknown>;
export const NoteItemFragmentDoc = new TypedDocumentString(`
    fragment NoteItem on Blog {
  id
  title
  rating
  likedCount
  commentCount
  author {
    nickName
  }
  shop {
    name
  }
}
    `, {"fragmentName":"NoteItem"}) as unknown as TypedDocumentString<NoteItemFragment, unknown>;
export const RefreshDocument = new TypedDocumentString(`
    mutation Refresh($t: String!) {
  refreshToken(token: $t) {
    accessToken
    refreshToken
    user {
      id
      nickName
      role
    }
  }
}
    `) as unknown as TypedDocumentString<RefreshMutation, RefreshMutationVariables>;
export const DealsNearbyDocument = new TypedDocumentString(`
    query DealsNearby($lon: Float!, $lat: Float!, $r: Int, $sort: DealSort, $a: String) {
  dealsNearby(
    longitude: $lon
    latitude: $lat
    radius: $r
    sort: $sort
    first: 10
    after: $a
  ) {
    edges {
      node {
        distanceMeters
        discount
        beginsAt
        endsAt
        secondsLeft
        remainingStock
        live
        voucher {
          id
          title
          payValue
          actualValue
          kind
          favoritedByMe
          remindedByMe
        }
        shop {
          id
          name
          area
          score
          images {
            url
          }
        }
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<DealsNearbyQuery, DealsNearbyQueryVariables>;
export const MyFavoritesDocument = new TypedDocumentString(`
    query MyFavorites($a: String) {
  myFavorites(first: 20, after: $a) {
    edges {
      node {
        id
        createdAt
        shop {
          id
          name
          area
          avgPrice
          score
          comments
          images {
            url
          }
          favoritedByMe
          favoriteCount
        }
        voucher {
          id
          title
          payValue
          actualValue
          kind
          endTime
          favoritedByMe
          shop {
            id
            name
          }
        }
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<MyFavoritesQuery, MyFavoritesQueryVariables>;
export const UnreadCountDocument = new TypedDocumentString(`
    query UnreadCount {
  unreadNotificationCount
}
    `) as unknown as TypedDocumentString<UnreadCountQuery, UnreadCountQueryVariables>;
export const NotificationAddedDocument = new TypedDocumentString(`
    subscription NotificationAdded {
  notificationAdded {
    id
  }
}
    `) as unknown as TypedDocumentString<NotificationAddedSubscription, NotificationAddedSubscriptionVariables>;
export const NotificationsDocument = new TypedDocumentString(`
    query Notifications($a: String, $unread: Boolean) {
  notifications(first: 20, after: $a, unreadOnly: $unread) {
    edges {
      node {
        ...NotificationItem
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment NotificationItem on Notification {
  id
  kind
  createdAt
  updatedAt
  read
  actorCount
  text
  actor {
    id
    nickName
    icon
  }
  blog {
    id
    title
  }
  order {
    id
  }
  voucher {
    id
    title
    beginTime
    shop {
      id
      name
    }
  }
}`) as unknown as TypedDocumentString<NotificationsQuery, NotificationsQueryVariables>;
export const MarkNotificationsReadDocument = new TypedDocumentString(`
    mutation MarkNotificationsRead($upTo: ID) {
  markNotificationsRead(upTo: $upTo)
}
    `) as unknown as TypedDocumentString<MarkNotificationsReadMutation, MarkNotificationsReadMutationVariables>;
export const NotificationSettingsDocument = new TypedDocumentString(`
    query NotificationSettings {
  notificationSettings {
    likes
    comments
    follows
    orders
    followedNotes
    shopSales
  }
}
    `) as unknown as TypedDocumentString<NotificationSettingsQuery, NotificationSettingsQueryVariables>;
export const UpdateNotificationSettingsDocument = new TypedDocumentString(`
    mutation UpdateNotificationSettings($in: NotificationSettingsInput!) {
  updateNotificationSettings(input: $in) {
    likes
    comments
    follows
    orders
    followedNotes
    shopSales
  }
}
    `) as unknown as TypedDocumentString<UpdateNotificationSettingsMutation, UpdateNotificationSettingsMutationVariables>;
export const LogoutDocument = new TypedDocumentString(`
    mutation Logout {
  logout
}
    `) as unknown as TypedDocumentString<LogoutMutation, LogoutMutationVariables>;
export const SendLoginCodeDocument = new TypedDocumentString(`
    mutation SendLoginCode($p: String!) {
  sendLoginCode(phone: $p) {
    sent
    devCode
  }
}
    `) as unknown as TypedDocumentString<SendLoginCodeMutation, SendLoginCodeMutationVariables>;
export const LoginDocument = new TypedDocumentString(`
    mutation Login($p: String!, $c: String!) {
  login(phone: $p, code: $c) {
    accessToken
    refreshToken
    user {
      id
      nickName
      role
    }
  }
}
    `) as unknown as TypedDocumentString<LoginMutation, LoginMutationVariables>;
export const ShopTypesDocument = new TypedDocumentString(`
    query ShopTypes {
  shopTypes {
    id
    name
    icon
  }
}
    `) as unknown as TypedDocumentString<ShopTypesQuery, ShopTypesQueryVariables>;
export const NearbyMineDocument = new TypedDocumentString(`
    query NearbyMine($t: ID!, $lon: Float!, $lat: Float!, $a: String) {
  nearbyShops(typeId: $t, longitude: $lon, latitude: $lat, first: 10, after: $a) {
    edges {
      distanceMeters
      node {
        ...ShopItem
        favoritedByMe
        favoriteCount
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment ShopItem on Shop {
  id
  name
  area
  avgPrice
  score
  comments
  images {
    url
  }
}`) as unknown as TypedDocumentString<NearbyMineQuery, NearbyMineQueryVariables>;
export const NearbyDocument = new TypedDocumentString(`
    query Nearby($t: ID!, $lon: Float!, $lat: Float!, $a: String) {
  nearbyShops(typeId: $t, longitude: $lon, latitude: $lat, first: 10, after: $a) {
    edges {
      distanceMeters
      node {
        ...ShopItem
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment ShopItem on Shop {
  id
  name
  area
  avgPrice
  score
  comments
  images {
    url
  }
}`) as unknown as TypedDocumentString<NearbyQuery, NearbyQueryVariables>;
export const ShopsMineDocument = new TypedDocumentString(`
    query ShopsMine($t: ID, $n: String, $a: String) {
  shops(typeId: $t, name: $n, first: 10, after: $a) {
    edges {
      node {
        ...ShopItem
        favoritedByMe
        favoriteCount
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment ShopItem on Shop {
  id
  name
  area
  avgPrice
  score
  comments
  images {
    url
  }
}`) as unknown as TypedDocumentString<ShopsMineQuery, ShopsMineQueryVariables>;
export const ShopsDocument = new TypedDocumentString(`
    query Shops($t: ID, $n: String, $a: String) {
  shops(typeId: $t, name: $n, first: 10, after: $a) {
    edges {
      node {
        ...ShopItem
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment ShopItem on Shop {
  id
  name
  area
  avgPrice
  score
  comments
  images {
    url
  }
}`) as unknown as TypedDocumentString<ShopsQuery, ShopsQueryVariables>;
export const ShopDocument = new TypedDocumentString(`
    query Shop($id: ID!) {
  shop(id: $id) {
    id
    name
    address
    avgPrice
    score
    comments
    images {
      url
      width
      height
    }
    openHours
    type {
      name
    }
    favoritedByMe
    favoriteCount
    vouchers {
      id
      title
      payValue
      actualValue
      kind
      stock
      beginTime
      endTime
      favoritedByMe
      remindedByMe
      reminderCount
    }
    blogs(first: 5) {
      edges {
        node {
          id
          title
          rating
          likedCount
          author {
            nickName
          }
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ShopQuery, ShopQueryVariables>;
export const SaleProgressDocument = new TypedDocumentString(`
    subscription SaleProgress($v: ID!) {
  saleProgress(voucherId: $v) {
    remaining
    soldOut
    phase
  }
}
    `) as unknown as TypedDocumentString<SaleProgressSubscription, SaleProgressSubscriptionVariables>;
export const OrderStatusDocument = new TypedDocumentString(`
    subscription OrderStatus($o: ID!) {
  orderStatus(orderId: $o) {
    orderId
    status
    reason
  }
}
    `) as unknown as TypedDocumentString<OrderStatusSubscription, OrderStatusSubscriptionVariables>;
export const OrderDocument = new TypedDocumentString(`
    query Order($o: ID!) {
  order(id: $o) {
    redemptionCode
  }
}
    `) as unknown as TypedDocumentString<OrderQuery, OrderQueryVariables>;
export const ClaimVoucherDocument = new TypedDocumentString(`
    mutation ClaimVoucher($v: ID!) {
  claimVoucher(voucherId: $v) {
    orderId
    status
  }
}
    `) as unknown as TypedDocumentString<ClaimVoucherMutation, ClaimVoucherMutationVariables>;
export const JoinWaitlistDocument = new TypedDocumentString(`
    mutation JoinWaitlist($v: ID!) {
  joinWaitlist(voucherId: $v) {
    id
    status
    position
  }
}
    `) as unknown as TypedDocumentString<JoinWaitlistMutation, JoinWaitlistMutationVariables>;
export const PayOrderDocument = new TypedDocumentString(`
    mutation PayOrder($o: ID!) {
  payOrder(orderId: $o) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<PayOrderMutation, PayOrderMutationVariables>;
export const CancelOrderDocument = new TypedDocumentString(`
    mutation CancelOrder($o: ID!) {
  cancelOrder(orderId: $o) {
    status
  }
}
    `) as unknown as TypedDocumentString<CancelOrderMutation, CancelOrderMutationVariables>;
export const MyOrdersDocument = new TypedDocumentString(`
    query MyOrders($s: [OrderStatus!]) {
  myOrders(status: $s, first: 20) {
    edges {
      node {
        id
        status
        amount
        voucher {
          title
        }
        shop {
          name
        }
        redemptionCode
      }
    }
  }
}
    `) as unknown as TypedDocumentString<MyOrdersQuery, MyOrdersQueryVariables>;
export const MySalesDocument = new TypedDocumentString(`
    query MySales {
  myShops {
    id
    name
    vouchers {
      id
      title
      kind
      stock
      beginTime
      endTime
      reminderCount
    }
  }
}
    `) as unknown as TypedDocumentString<MySalesQuery, MySalesQueryVariables>;
export const CreateFlashSaleDocument = new TypedDocumentString(`
    mutation CreateFlashSale($in: CreateFlashSaleInput!) {
  createFlashSale(input: $in) {
    id
  }
}
    `) as unknown as TypedDocumentString<CreateFlashSaleMutation, CreateFlashSaleMutationVariables>;
export const SaleStatsDocument = new TypedDocumentString(`
    subscription SaleStats($v: ID!) {
  saleStats(voucherId: $v) {
    remaining
    accepted
    pending
    created
    paid
    used
    canceled
    failed
    claimsPerSecond
    at
  }
}
    `) as unknown as TypedDocumentString<SaleStatsSubscription, SaleStatsSubscriptionVariables>;
export const FeedPageDocument = new TypedDocumentString(`
    query FeedPage($a: String) {
  page: feed(first: 10, after: $a) {
    edges {
      node {
        ...NoteItem
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment NoteItem on Blog {
  id
  title
  rating
  likedCount
  commentCount
  author {
    nickName
  }
  shop {
    name
  }
}`) as unknown as TypedDocumentString<FeedPageQuery, FeedPageQueryVariables>;
export const HotPageDocument = new TypedDocumentString(`
    query HotPage($a: String) {
  page: hotBlogs(first: 10, after: $a) {
    edges {
      node {
        ...NoteItem
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment NoteItem on Blog {
  id
  title
  rating
  likedCount
  commentCount
  author {
    nickName
  }
  shop {
    name
  }
}`) as unknown as TypedDocumentString<HotPageQuery, HotPageQueryVariables>;
export const FollowDocument = new TypedDocumentString(`
    mutation Follow($u: ID!) {
  follow(userId: $u)
}
    `) as unknown as TypedDocumentString<FollowMutation, FollowMutationVariables>;
export const LikeBlogDocument = new TypedDocumentString(`
    mutation LikeBlog($id: ID!) {
  likeBlog(id: $id) {
    id
  }
}
    `) as unknown as TypedDocumentString<LikeBlogMutation, LikeBlogMutationVariables>;
export const UnlikeBlogDocument = new TypedDocumentString(`
    mutation UnlikeBlog($id: ID!) {
  unlikeBlog(id: $id) {
    id
  }
}
    `) as unknown as TypedDocumentString<UnlikeBlogMutation, UnlikeBlogMutationVariables>;
export const UnfollowDocument = new TypedDocumentString(`
    mutation Unfollow($u: ID!) {
  unfollow(userId: $u)
}
    `) as unknown as TypedDocumentString<UnfollowMutation, UnfollowMutationVariables>;
export const BlogDocument = new TypedDocumentString(`
    query Blog($id: ID!) {
  blog(id: $id) {
    id
    title
    content
    images {
      url
      width
      height
    }
    rating
    likedCount
    likedByMe
    author {
      id
      nickName
      icon
      isFollowedByMe
    }
    shop {
      id
      name
    }
    comments(first: 20) {
      edges {
        node {
          id
          content
          author {
            nickName
          }
          replies(first: 5) {
            edges {
              node {
                id
                content
                author {
                  nickName
                }
                replyToUser {
                  nickName
                }
              }
            }
          }
        }
      }
    }
  }
  blogLikers(blogId: $id) {
    nickName
  }
}
    `) as unknown as TypedDocumentString<BlogQuery, BlogQueryVariables>;
export const CreateCommentDocument = new TypedDocumentString(`
    mutation CreateComment($b: ID!, $c: String!) {
  createComment(blogId: $b, content: $c) {
    id
  }
}
    `) as unknown as TypedDocumentString<CreateCommentMutation, CreateCommentMutationVariables>;
export const UploadImageDocument = new TypedDocumentString(`
    mutation UploadImage($f: Upload!) {
  uploadImage(file: $f) {
    url
  }
}
    `) as unknown as TypedDocumentString<UploadImageMutation, UploadImageMutationVariables>;
export const CreateBlogDocument = new TypedDocumentString(`
    mutation CreateBlog($in: CreateBlogInput!) {
  createBlog(input: $in) {
    id
  }
}
    `) as unknown as TypedDocumentString<CreateBlogMutation, CreateBlogMutationVariables>;
export const SignInStatusDocument = new TypedDocumentString(`
    query SignInStatus {
  signInStatus {
    month
    signedDays
    consecutiveDays
  }
}
    `) as unknown as TypedDocumentString<SignInStatusQuery, SignInStatusQueryVariables>;
export const SignInDocument = new TypedDocumentString(`
    mutation SignIn {
  signIn {
    month
  }
}
    `) as unknown as TypedDocumentString<SignInMutation, SignInMutationVariables>;
export const SearchDocument = new TypedDocumentString(`
    query Search($q: String!, $kind: SearchKind!, $a: String) {
  search(query: $q, kind: $kind, first: 10, after: $a) {
    edges {
      node {
        score
        snippet
        shop {
          id
          name
          area
          avgPrice
          score
          images {
            url
          }
        }
        note {
          id
          title
          likedCount
          author {
            nickName
          }
          shop {
            name
          }
        }
        user {
          id
          nickName
          icon
        }
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<SearchQuery, SearchQueryVariables>;
export const FavoriteShopDocument = new TypedDocumentString(`
    mutation FavoriteShop($id: ID!) {
  mark: favoriteShop(shopId: $id) {
    id
    favoritedByMe
    favoriteCount
  }
}
    `) as unknown as TypedDocumentString<FavoriteShopMutation, FavoriteShopMutationVariables>;
export const UnfavoriteShopDocument = new TypedDocumentString(`
    mutation UnfavoriteShop($id: ID!) {
  mark: unfavoriteShop(shopId: $id) {
    id
    favoritedByMe
    favoriteCount
  }
}
    `) as unknown as TypedDocumentString<UnfavoriteShopMutation, UnfavoriteShopMutationVariables>;
export const FavoriteVoucherDocument = new TypedDocumentString(`
    mutation FavoriteVoucher($id: ID!) {
  mark: favoriteVoucher(voucherId: $id) {
    id
    favoritedByMe
  }
}
    `) as unknown as TypedDocumentString<FavoriteVoucherMutation, FavoriteVoucherMutationVariables>;
export const UnfavoriteVoucherDocument = new TypedDocumentString(`
    mutation UnfavoriteVoucher($id: ID!) {
  mark: unfavoriteVoucher(voucherId: $id) {
    id
    favoritedByMe
  }
}
    `) as unknown as TypedDocumentString<UnfavoriteVoucherMutation, UnfavoriteVoucherMutationVariables>;
export const RemindMeDocument = new TypedDocumentString(`
    mutation RemindMe($id: ID!) {
  mark: remindMe(voucherId: $id) {
    id
    remindedByMe
    reminderCount
  }
}
    `) as unknown as TypedDocumentString<RemindMeMutation, RemindMeMutationVariables>;
export const CancelReminderDocument = new TypedDocumentString(`
    mutation CancelReminder($id: ID!) {
  mark: cancelReminder(voucherId: $id) {
    id
    remindedByMe
    reminderCount
  }
}
    `) as unknown as TypedDocumentString<CancelReminderMutation, CancelReminderMutationVariables>;
export const MyWaitlistDocument = new TypedDocumentString(`
    query MyWaitlist {
  myWaitlist {
    id
    voucherId
    status
    position
    joinedAt
    offer {
      offeredAt
      expiresAt
    }
    voucher {
      id
      title
      payValue
      actualValue
      shop {
        id
        name
      }
    }
  }
}
    `) as unknown as TypedDocumentString<MyWaitlistQuery, MyWaitlistQueryVariables>;
export const AcceptOfferDocument = new TypedDocumentString(`
    mutation AcceptOffer($v: ID!) {
  acceptOffer(voucherId: $v) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<AcceptOfferMutation, AcceptOfferMutationVariables>;
export const DeclineOfferDocument = new TypedDocumentString(`
    mutation DeclineOffer($v: ID!) {
  declineOffer(voucherId: $v)
}
    `) as unknown as TypedDocumentString<DeclineOfferMutation, DeclineOfferMutationVariables>;
export const LeaveWaitlistDocument = new TypedDocumentString(`
    mutation LeaveWaitlist($v: ID!) {
  leaveWaitlist(voucherId: $v)
}
    `) as unknown as TypedDocumentString<LeaveWaitlistMutation, LeaveWaitlistMutationVariables>;