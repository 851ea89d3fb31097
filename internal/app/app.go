// Package app gathers Dealspot's use cases. Transports (GraphQL, queue handlers) receive
// an *Application and nothing else.
package app

import (
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/app/social"
)

// Application is every use case of Dealspot.
type Application struct {
	Shops        *shop.Queries
	ShopCommands *shop.Commands
	Auth         *auth.Service
	Seckill      *seckill.Service
	Social       *social.Service
}
