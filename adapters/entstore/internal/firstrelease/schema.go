// Package firstrelease holds the tables of Dealspot's first release (commit 2d18afb,
// ent/migrate/schema.go copied unchanged but for this comment and the package name), for
// the tests that build a database the way that release did (ent's Schema.Create) and
// upgrade it. The baseline migration file was generated from these tables.
package firstrelease

import (
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
		{Name: "comments", Type: field.TypeInt, Default: 0},
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
				Name:    "blog_liked_id",
				Unique:  false,
				Columns: []*schema.Column{BlogsColumns[8], BlogsColumns[0]},
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
				Name:    "follow_follow_user_id",
				Unique:  false,
				Columns: []*schema.Column{FollowsColumns[4]},
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
		{Name: "open_hours", Type: field.TypeString, Size: 64, Default: ""},
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
				Columns:    []*schema.Column{ShopsColumns[14]},
				RefColumns: []*schema.Column{ShopTypesColumns[0]},
				OnDelete:   schema.NoAction,
			},
		},
		Indexes: []*schema.Index{
			{
				Name:    "shop_type_id",
				Unique:  false,
				Columns: []*schema.Column{ShopsColumns[14]},
			},
			{
				Name:    "shop_type_id_id",
				Unique:  false,
				Columns: []*schema.Column{ShopsColumns[14], ShopsColumns[0]},
			},
			{
				Name:    "shop_name",
				Unique:  false,
				Columns: []*schema.Column{ShopsColumns[3]},
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
	// UsersColumns holds the columns for the "users" table.
	UsersColumns = []*schema.Column{
		{Name: "id", Type: field.TypeInt64, Increment: true},
		{Name: "created_at", Type: field.TypeTime},
		{Name: "updated_at", Type: field.TypeTime},
		{Name: "phone", Type: field.TypeString, Unique: true, Size: 32},
		{Name: "nick_name", Type: field.TypeString, Size: 64, Default: ""},
		{Name: "icon", Type: field.TypeString, Size: 255, Default: ""},
		{Name: "role", Type: field.TypeEnum, Enums: []string{"USER", "ADMIN"}, Default: "USER"},
		{Name: "blocked", Type: field.TypeBool, Default: false},
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
		{Name: "status", Type: field.TypeEnum, Enums: []string{"PENDING", "CREATED", "FAILED", "PAID", "USED", "CANCELED", "REFUNDED"}, Default: "CREATED"},
		{Name: "pay_time", Type: field.TypeTime, Nullable: true},
		{Name: "use_time", Type: field.TypeTime, Nullable: true},
		{Name: "refund_time", Type: field.TypeTime, Nullable: true},
	}
	// VoucherOrdersTable holds the schema information for the "voucher_orders" table.
	VoucherOrdersTable = &schema.Table{
		Name:       "voucher_orders",
		Columns:    VoucherOrdersColumns,
		PrimaryKey: []*schema.Column{VoucherOrdersColumns[0]},
		Indexes: []*schema.Index{
			{
				Name:    "voucherorder_user_id_voucher_id",
				Unique:  true,
				Columns: []*schema.Column{VoucherOrdersColumns[3], VoucherOrdersColumns[4]},
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
		},
	}
	// Tables holds all the tables in the schema.
	Tables = []*schema.Table{
		BlogsTable,
		FlashSalesTable,
		FollowsTable,
		ShopsTable,
		ShopTypesTable,
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
