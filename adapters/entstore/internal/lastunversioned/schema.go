// Package lastunversioned holds the tables of the last release before versioned
// migrations (ent/migrate/schema.go of that release, copied unchanged but for this
// comment and the package name). Migrate brings a database made by any earlier release's
// Schema.Create to this schema the way that release would have, then adopts it.
package lastunversioned

import (
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/dialect/sql/schema"
	"entgo.io/ent/schema/field"
)

var (
	// BlogsColumns holds the columns for the "blogs" table.
	BlogsColumns = []*schema.Column{
		{Name: "id", Type: field.TypeInt64, Increment: true},
		{Name: "created_at", Type: field.TypeTime},
		{Name: "updated_at", Type: field.TypeTime},
		{Name: "shop_id", Type: field.TypeInt64},
		{Name: "user_id", Type: field.TypeInt64},
		{Name: "title", Type: field.TypeString, Size: 255},
		{Name: "images", Type: field.TypeString, Size: 2048, Default: ""},
		{Name: "content", Type: field.TypeString, Size: 2147483647, Default: ""},
		{Name: "liked", Type: field.TypeInt, Default: 0},
		{Name: "liked_seq", Type: field.TypeInt64, Default: 0},
		{Name: "comments", Type: field.TypeInt, Default: 0},
		{Name: "rating", Type: field.TypeInt, Default: 0},
	}
	// BlogsTable holds the schema information for the "blogs" table.
	BlogsTable = &schema.Table{
		Name:       "blogs",
		Columns:    BlogsColumns,
		PrimaryKey: []*schema.Column{BlogsColumns[0]},
		Indexes: []*schema.Index{
			{
				Name:    "blog_user_id_id",
				Unique:  false,
				Columns: []*schema.Column{BlogsColumns[4], BlogsColumns[0]},
			},
			{
				Name:    "blog_shop_id_id",
				Unique:  false,
				Columns: []*schema.Column{BlogsColumns[3], BlogsColumns[0]},
			},
			{
				Name:    "blog_liked_id",
				Unique:  false,
				Columns: []*schema.Column{BlogsColumns[8], BlogsColumns[0]},
			},
		},
	}
	// BlogLikesColumns holds the columns for the "blog_likes" table.
	BlogLikesColumns = []*schema.Column{
		{Name: "id", Type: field.TypeInt64, Increment: true},
		{Name: "blog_id", Type: field.TypeInt64},
		{Name: "user_id", Type: field.TypeInt64},
		{Name: "liked_at", Type: field.TypeTime},
	}
	// BlogLikesTable holds the schema information for the "blog_likes" table.
	BlogLikesTable = &schema.Table{
		Name:       "blog_likes",
		Columns:    BlogLikesColumns,
		PrimaryKey: []*schema.Column{BlogLikesColumns[0]},
		Indexes: []*schema.Index{
			{
				Name:    "bloglike_blog_id_user_id",
				Unique:  true,
				Columns: []*schema.Column{BlogLikesColumns[1], BlogLikesColumns[2]},
			},
		},
	}
	// CommentsColumns holds the columns for the "comments" table.
	CommentsColumns = []*schema.Column{
		{Name: "id", Type: field.TypeInt64, Increment: true},
		{Name: "created_at", Type: field.TypeTime},
		{Name: "updated_at", Type: field.TypeTime},
		{Name: "blog_id", Type: field.TypeInt64},
		{Name: "user_id", Type: field.TypeInt64},
		{Name: "parent_id", Type: field.TypeInt64, Default: 0},
		{Name: "reply_to_user_id", Type: field.TypeInt64, Default: 0},
		{Name: "content", Type: field.TypeString, Size: 4000},
		{Name: "replies", Type: field.TypeInt, Default: 0},
	}
	// CommentsTable holds the schema information for the "comments" table.
	CommentsTable = &schema.Table{
		Name:       "comments",
		Columns:    CommentsColumns,
		PrimaryKey: []*schema.Column{CommentsColumns[0]},
		Indexes: []*schema.Index{
			{
				Name:    "comment_blog_id_parent_id_id",
				Unique:  false,
				Columns: []*schema.Column{CommentsColumns[3], CommentsColumns[5], CommentsColumns[0]},
			},
			{
				Name:    "comment_parent_id_id",
				Unique:  false,
				Columns: []*schema.Column{CommentsColumns[5], CommentsColumns[0]},
			},
		},
	}
	// FlashSalesColumns holds the columns for the "flash_sales" table.
	FlashSalesColumns = []*schema.Column{
		{Name: "id", Type: field.TypeInt64},
		{Name: "created_at", Type: field.TypeTime},
		{Name: "updated_at", Type: field.TypeTime},
		{Name: "stock", Type: field.TypeInt},
		{Name: "begin_time", Type: field.TypeTime},
		{Name: "end_time", Type: field.TypeTime},
		{Name: "buckets", Type: field.TypeInt, Default: 1},
	}
	// FlashSalesTable holds the schema information for the "flash_sales" table.
	FlashSalesTable = &schema.Table{
		Name:       "flash_sales",
		Columns:    FlashSalesColumns,
		PrimaryKey: []*schema.Column{FlashSalesColumns[0]},
		ForeignKeys: []*schema.ForeignKey{
			{
				Symbol:     "flash_sales_vouchers_flash_sale",
				Columns:    []*schema.Column{FlashSalesColumns[0]},
				RefColumns: []*schema.Column{VouchersColumns[0]},
				OnDelete:   schema.NoAction,
			},
		},
	}
	// FollowsColumns holds the columns for the "follows" table.
	FollowsColumns = []*schema.Column{
		{Name: "id", Type: field.TypeInt64, Increment: true},
		{Name: "created_at", Type: field.TypeTime},
		{Name: "updated_at", Type: field.TypeTime},
		{Name: "user_id", Type: field.TypeInt64},
		{Name: "follow_user_id", Type: field.TypeInt64},
	}
	// FollowsTable holds the schema information for the "follows" table.
	FollowsTable = &schema.Table{
		Name:       "follows",
		Columns:    FollowsColumns,
		PrimaryKey: []*schema.Column{FollowsColumns[0]},
		Indexes: []*schema.Index{
			{
				Name:    "follow_user_id_follow_user_id",
				Unique:  true,
				Columns: []*schema.Column{FollowsColumns[3], FollowsColumns[4]},
			},
			{
				Name:    "follow_follow_user_id_user_id",
				Unique:  false,
				Columns: []*schema.Column{FollowsColumns[4], FollowsColumns[3]},
			},
			{
				Name:    "follow_follow_user_id_id",
				Unique:  false,
				Columns: []*schema.Column{FollowsColumns[4], FollowsColumns[0]},
			},
			{
				Name:    "follow_user_id_id",
				Unique:  false,
				Columns: []*schema.Column{FollowsColumns[3], FollowsColumns[0]},
			},
		},
	}
	// OrderIDNodesColumns holds the columns for the "order_id_nodes" table.
	OrderIDNodesColumns = []*schema.Column{
		{Name: "id", Type: field.TypeInt64, Increment: true},
		{Name: "created_at", Type: field.TypeTime},
		{Name: "updated_at", Type: field.TypeTime},
		{Name: "host", Type: field.TypeString, Size: 255, Default: ""},
	}
	// OrderIDNodesTable holds the schema information for the "order_id_nodes" table.
	OrderIDNodesTable = &schema.Table{
		Name:       "order_id_nodes",
		Columns:    OrderIDNodesColumns,
		PrimaryKey: []*schema.Column{OrderIDNodesColumns[0]},
	}
	// PaymentsColumns holds the columns for the "payments" table.
	PaymentsColumns = []*schema.Column{
		{Name: "id", Type: field.TypeInt64},
		{Name: "created_at", Type: field.TypeTime},
		{Name: "updated_at", Type: field.TypeTime},
		{Name: "order_id", Type: field.TypeInt64},
		{Name: "user_id", Type: field.TypeInt64},
		{Name: "amount", Type: field.TypeInt64},
		{Name: "status", Type: field.TypeEnum, Enums: []string{"PENDING", "SUCCEEDED", "FAILED", "REFUND_PENDING", "REFUNDED"}, Default: "PENDING"},
		{Name: "provider", Type: field.TypeString, Size: 32, Default: ""},
		{Name: "provider_ref", Type: field.TypeString, Size: 128, Default: ""},
		{Name: "paid_at", Type: field.TypeTime, Nullable: true},
		{Name: "refunded_at", Type: field.TypeTime, Nullable: true},
		{Name: "refund_reason", Type: field.TypeString, Size: 255, Default: ""},
	}
	// PaymentsTable holds the schema information for the "payments" table.
	PaymentsTable = &schema.Table{
		Name:       "payments",
		Columns:    PaymentsColumns,
		PrimaryKey: []*schema.Column{PaymentsColumns[0]},
		Indexes: []*schema.Index{
			{
				Name:    "payment_order_id",
				Unique:  false,
				Columns: []*schema.Column{PaymentsColumns[3]},
			},
			{
				Name:    "payment_one_open_per_order",
				Unique:  true,
				Columns: []*schema.Column{PaymentsColumns[3]},
				Annotation: &entsql.IndexAnnotation{
					Where: "status = 'PENDING'",
				},
			},
			{
				Name:    "payment_refunds_due",
				Unique:  false,
				Columns: []*schema.Column{PaymentsColumns[6]},
				Annotation: &entsql.IndexAnnotation{
					Where: "status = 'REFUND_PENDING'",
				},
			},
		},
	}
	// SessionsColumns holds the columns for the "sessions" table.
	SessionsColumns = []*schema.Column{
		{Name: "id", Type: field.TypeString, Size: 64},
		{Name: "created_at", Type: field.TypeTime},
		{Name: "updated_at", Type: field.TypeTime},
		{Name: "user_id", Type: field.TypeInt64},
		{Name: "token_hash", Type: field.TypeString, Size: 64},
		{Name: "expires_at", Type: field.TypeTime},
		{Name: "revoked_at", Type: field.TypeTime, Nullable: true},
	}
	// SessionsTable holds the schema information for the "sessions" table.
	SessionsTable = &schema.Table{
		Name:       "sessions",
		Columns:    SessionsColumns,
		PrimaryKey: []*schema.Column{SessionsColumns[0]},
		Indexes: []*schema.Index{
			{
				Name:    "session_user_id",
				Unique:  false,
				Columns: []*schema.Column{SessionsColumns[3]},
			},
			{
				Name:    "session_expires_at",
				Unique:  false,
				Columns: []*schema.Column{SessionsColumns[5]},
			},
		},
	}
	// SessionTokensColumns holds the columns for the "session_tokens" table.
	SessionTokensColumns = []*schema.Column{
		{Name: "id", Type: field.TypeInt64, Increment: true},
		{Name: "session_id", Type: field.TypeString, Size: 64},
		{Name: "token_hash", Type: field.TypeString, Size: 64},
	}
	// SessionTokensTable holds the schema information for the "session_tokens" table.
	SessionTokensTable = &schema.Table{
		Name:       "session_tokens",
		Columns:    SessionTokensColumns,
		PrimaryKey: []*schema.Column{SessionTokensColumns[0]},
		Indexes: []*schema.Index{
			{
				Name:    "sessiontoken_session_id_token_hash",
				Unique:  true,
				Columns: []*schema.Column{SessionTokensColumns[1], SessionTokensColumns[2]},
			},
		},
	}
	// ShopsColumns holds the columns for the "shops" table.
	ShopsColumns = []*schema.Column{
		{Name: "id", Type: field.TypeInt64, Increment: true},
		{Name: "created_at", Type: field.TypeTime},
		{Name: "updated_at", Type: field.TypeTime},
		{Name: "name", Type: field.TypeString, Size: 128},
		{Name: "images", Type: field.TypeString, Size: 1024, Default: ""},
		{Name: "area", Type: field.TypeString, Size: 128, Default: ""},
		{Name: "address", Type: field.TypeString, Size: 255, Default: ""},
		{Name: "longitude", Type: field.TypeFloat64},
		{Name: "latitude", Type: field.TypeFloat64},
		{Name: "avg_price", Type: field.TypeInt64, Default: 0},
		{Name: "sold", Type: field.TypeInt, Default: 0},
		{Name: "comments", Type: field.TypeInt, Default: 0},
		{Name: "score", Type: field.TypeInt, Default: 0},
		{Name: "rating_sum", Type: field.TypeInt64, Default: 0},
		{Name: "rating_count", Type: field.TypeInt, Default: 0},
		{Name: "open_hours", Type: field.TypeString, Size: 64, Default: ""},
		{Name: "owner_id", Type: field.TypeInt64, Nullable: true},
		{Name: "type_id", Type: field.TypeInt64},
	}
	// ShopsTable holds the schema information for the "shops" table.
	ShopsTable = &schema.Table{
		Name:       "shops",
		Columns:    ShopsColumns,
		PrimaryKey: []*schema.Column{ShopsColumns[0]},
		ForeignKeys: []*schema.ForeignKey{
			{
				Symbol:     "shops_shop_types_shops",
				Columns:    []*schema.Column{ShopsColumns[17]},
				RefColumns: []*schema.Column{ShopTypesColumns[0]},
				OnDelete:   schema.NoAction,
			},
		},
		Indexes: []*schema.Index{
			{
				Name:    "shop_type_id",
				Unique:  false,
				Columns: []*schema.Column{ShopsColumns[17]},
			},
			{
				Name:    "shop_type_id_id",
				Unique:  false,
				Columns: []*schema.Column{ShopsColumns[17], ShopsColumns[0]},
			},
			{
				Name:    "shop_name",
				Unique:  false,
				Columns: []*schema.Column{ShopsColumns[3]},
			},
			{
				Name:    "shop_owner_id",
				Unique:  false,
				Columns: []*schema.Column{ShopsColumns[16]},
			},
		},
	}
	// ShopTypesColumns holds the columns for the "shop_types" table.
	ShopTypesColumns = []*schema.Column{
		{Name: "id", Type: field.TypeInt64, Increment: true},
		{Name: "created_at", Type: field.TypeTime},
		{Name: "updated_at", Type: field.TypeTime},
		{Name: "name", Type: field.TypeString, Size: 64},
		{Name: "icon", Type: field.TypeString, Size: 255, Default: ""},
		{Name: "sort", Type: field.TypeInt, Default: 0},
	}
	// ShopTypesTable holds the schema information for the "shop_types" table.
	ShopTypesTable = &schema.Table{
		Name:       "shop_types",
		Columns:    ShopTypesColumns,
		PrimaryKey: []*schema.Column{ShopTypesColumns[0]},
	}
	// SignInsColumns holds the columns for the "sign_ins" table.
	SignInsColumns = []*schema.Column{
		{Name: "id", Type: field.TypeInt64, Increment: true},
		{Name: "user_id", Type: field.TypeInt64},
		{Name: "month", Type: field.TypeInt},
		{Name: "days", Type: field.TypeInt64, Default: 0},
	}
	// SignInsTable holds the schema information for the "sign_ins" table.
	SignInsTable = &schema.Table{
		Name:       "sign_ins",
		Columns:    SignInsColumns,
		PrimaryKey: []*schema.Column{SignInsColumns[0]},
		Indexes: []*schema.Index{
			{
				Name:    "signin_user_id_month",
				Unique:  true,
				Columns: []*schema.Column{SignInsColumns[1], SignInsColumns[2]},
			},
		},
	}
	// UsersColumns holds the columns for the "users" table.
	UsersColumns = []*schema.Column{
		{Name: "id", Type: field.TypeInt64, Increment: true},
		{Name: "created_at", Type: field.TypeTime},
		{Name: "updated_at", Type: field.TypeTime},
		{Name: "phone", Type: field.TypeString, Unique: true, Size: 32},
		{Name: "nick_name", Type: field.TypeString, Size: 64, Default: ""},
		{Name: "icon", Type: field.TypeString, Size: 255, Default: ""},
		{Name: "role", Type: field.TypeEnum, Enums: []string{"USER", "MERCHANT", "ADMIN"}, Default: "USER"},
		{Name: "blocked", Type: field.TypeBool, Default: false},
		{Name: "city", Type: field.TypeString, Size: 64, Default: ""},
		{Name: "introduction", Type: field.TypeString, Size: 1024, Default: ""},
		{Name: "gender", Type: field.TypeEnum, Enums: []string{"UNKNOWN", "FEMALE", "MALE", "OTHER"}, Default: "UNKNOWN"},
		{Name: "birthday", Type: field.TypeTime, Nullable: true},
		{Name: "credits", Type: field.TypeInt, Default: 0},
		{Name: "level", Type: field.TypeInt, Default: 0},
	}
	// UsersTable holds the schema information for the "users" table.
	UsersTable = &schema.Table{
		Name:       "users",
		Columns:    UsersColumns,
		PrimaryKey: []*schema.Column{UsersColumns[0]},
	}
	// VouchersColumns holds the columns for the "vouchers" table.
	VouchersColumns = []*schema.Column{
		{Name: "id", Type: field.TypeInt64, Increment: true},
		{Name: "created_at", Type: field.TypeTime},
		{Name: "updated_at", Type: field.TypeTime},
		{Name: "title", Type: field.TypeString, Size: 255},
		{Name: "sub_title", Type: field.TypeString, Size: 255, Default: ""},
		{Name: "rules", Type: field.TypeString, Size: 2147483647, Default: ""},
		{Name: "pay_value", Type: field.TypeInt64},
		{Name: "actual_value", Type: field.TypeInt64},
		{Name: "kind", Type: field.TypeEnum, Enums: []string{"NORMAL", "FLASH_SALE"}, Default: "NORMAL"},
		{Name: "status", Type: field.TypeEnum, Enums: []string{"ON_SALE", "OFF_SALE"}, Default: "ON_SALE"},
		{Name: "shop_id", Type: field.TypeInt64},
	}
	// VouchersTable holds the schema information for the "vouchers" table.
	VouchersTable = &schema.Table{
		Name:       "vouchers",
		Columns:    VouchersColumns,
		PrimaryKey: []*schema.Column{VouchersColumns[0]},
		ForeignKeys: []*schema.ForeignKey{
			{
				Symbol:     "vouchers_shops_vouchers",
				Columns:    []*schema.Column{VouchersColumns[10]},
				RefColumns: []*schema.Column{ShopsColumns[0]},
				OnDelete:   schema.NoAction,
			},
		},
		Indexes: []*schema.Index{
			{
				Name:    "voucher_shop_id",
				Unique:  false,
				Columns: []*schema.Column{VouchersColumns[10]},
			},
		},
	}
	// VoucherOrdersColumns holds the columns for the "voucher_orders" table.
	VoucherOrdersColumns = []*schema.Column{
		{Name: "id", Type: field.TypeInt64},
		{Name: "created_at", Type: field.TypeTime},
		{Name: "updated_at", Type: field.TypeTime},
		{Name: "user_id", Type: field.TypeInt64},
		{Name: "voucher_id", Type: field.TypeInt64},
		{Name: "shop_id", Type: field.TypeInt64, Default: 0},
		{Name: "kind", Type: field.TypeEnum, Enums: []string{"NORMAL", "FLASH_SALE"}, Default: "FLASH_SALE"},
		{Name: "quantity", Type: field.TypeInt, Default: 1},
		{Name: "amount", Type: field.TypeInt64, Default: 0},
		{Name: "status", Type: field.TypeEnum, Enums: []string{"PENDING", "CREATED", "FAILED", "PAID", "USED", "CANCELED", "REFUNDED"}, Default: "CREATED"},
		{Name: "pay_deadline", Type: field.TypeTime, Nullable: true},
		{Name: "pay_time", Type: field.TypeTime, Nullable: true},
		{Name: "use_time", Type: field.TypeTime, Nullable: true},
		{Name: "canceled_at", Type: field.TypeTime, Nullable: true},
		{Name: "cancel_reason", Type: field.TypeString, Size: 32, Default: ""},
		{Name: "refund_time", Type: field.TypeTime, Nullable: true},
		{Name: "refund_reason", Type: field.TypeString, Size: 255, Default: ""},
		{Name: "redemption_code", Type: field.TypeString, Unique: true, Nullable: true, Size: 32},
	}
	// VoucherOrdersTable holds the schema information for the "voucher_orders" table.
	VoucherOrdersTable = &schema.Table{
		Name:       "voucher_orders",
		Columns:    VoucherOrdersColumns,
		PrimaryKey: []*schema.Column{VoucherOrdersColumns[0]},
		Indexes: []*schema.Index{
			{
				Name:    "voucherorder_one_live_flash_order",
				Unique:  true,
				Columns: []*schema.Column{VoucherOrdersColumns[3], VoucherOrdersColumns[4]},
				Annotation: &entsql.IndexAnnotation{
					Where: "kind = 'FLASH_SALE' AND status IN ('PENDING', 'CREATED', 'PAID', 'USED')",
				},
			},
			{
				Name:    "voucherorder_user_id_id",
				Unique:  false,
				Columns: []*schema.Column{VoucherOrdersColumns[3], VoucherOrdersColumns[0]},
			},
			{
				Name:    "voucherorder_voucher_id",
				Unique:  false,
				Columns: []*schema.Column{VoucherOrdersColumns[4]},
			},
			{
				Name:    "voucherorder_shop_id_id",
				Unique:  false,
				Columns: []*schema.Column{VoucherOrdersColumns[5], VoucherOrdersColumns[0]},
			},
			{
				Name:    "voucherorder_unpaid_by_deadline",
				Unique:  false,
				Columns: []*schema.Column{VoucherOrdersColumns[10]},
				Annotation: &entsql.IndexAnnotation{
					Where: "status = 'CREATED'",
				},
			},
		},
	}
	// Tables holds all the tables in the schema.
	Tables = []*schema.Table{
		BlogsTable,
		BlogLikesTable,
		CommentsTable,
		FlashSalesTable,
		FollowsTable,
		OrderIDNodesTable,
		PaymentsTable,
		SessionsTable,
		SessionTokensTable,
		ShopsTable,
		ShopTypesTable,
		SignInsTable,
		UsersTable,
		VouchersTable,
		VoucherOrdersTable,
	}
)

func init() {
	FlashSalesTable.ForeignKeys[0].RefTable = VouchersTable
	ShopsTable.ForeignKeys[0].RefTable = ShopTypesTable
	VouchersTable.ForeignKeys[0].RefTable = ShopsTable
}
