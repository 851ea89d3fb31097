package auth

import "net/netip"

// ClientKey is the identity per-address limits count a client by: its IPv4 address, or the /64
// network of its IPv6 address. One subscriber usually holds a whole /64, so counting
// single IPv6 addresses would let one client take a fresh address for every request.
// Anything that is not an address is used as it is.
func ClientKey(clientIP string) string {
	a, err := netip.ParseAddr(clientIP)
	if err != nil {
		return clientIP
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String()
	}
	p, _ := a.Prefix(64)
	return p.String()
}
