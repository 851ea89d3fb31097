package metrics

import (
	"runtime"
	"runtime/debug"

	"github.com/prometheus/client_golang/prometheus"
)

// Version is the release the binary was built as, set at build time:
//
//	go build -ldflags "-X github.com/dealspot/dealspot/adapters/metrics.Version=v1.4.0" ./cmd/dealspot
//
// When unset, the module version recorded in the binary is used ("(devel)" for a build
// from a checkout).
var Version string

// BuildInfo returns the binary's version, VCS revision (with "-dirty" for a modified
// tree; "unknown" when not recorded) and Go version.
func BuildInfo() (version, revision, goVersion string) {
	version, revision, goVersion = Version, "unknown", runtime.Version()
	info, ok := debug.ReadBuildInfo()
	if !ok {
		if version == "" {
			version = "unknown"
		}
		return version, revision, goVersion
	}
	if version == "" {
		version = info.Main.Version
	}
	if version == "" {
		version = "unknown"
	}
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if dirty && revision != "unknown" {
		revision += "-dirty"
	}
	return version, revision, goVersion
}

// RegisterBuildInfo registers dealspot_build_info, a gauge of 1 labelled with the
// binary's version, revision and Go version.
func RegisterBuildInfo(reg prometheus.Registerer) error {
	version, revision, goVersion := BuildInfo()
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "dealspot_build_info",
		Help:        "Always 1; its labels name the running build: version (-ldflags or module version), VCS revision, Go version.",
		ConstLabels: prometheus.Labels{"version": version, "revision": revision, "go_version": goVersion},
	})
	g.Set(1)
	_, err := register(reg, g)
	return err
}
