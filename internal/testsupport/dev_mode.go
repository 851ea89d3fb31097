package testsupport

// DevModeOnPurpose sets DEALSPOT_DEV=true in vars unless they name a mode themselves
// (DEALSPOT_DEV or DEALSPOT_ENV), and returns vars. Tests run dev mode beside PostgreSQL
// and admin phones of their own, which dev mode taken by default refuses (it would hand
// a deployment's login codes to anyone); asking for it explicitly is allowed.
func DevModeOnPurpose(vars map[string]string) map[string]string {
	if vars["DEALSPOT_DEV"] == "" && vars["DEALSPOT_ENV"] == "" {
		vars["DEALSPOT_DEV"] = "true"
	}
	return vars
}
