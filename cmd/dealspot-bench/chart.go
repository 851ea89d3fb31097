package main

import (
	"fmt"
	"html"
	"math"
	"os"
	"strings"
)

// Chart geometry, in SVG user units.
const (
	chartW      = 960
	chartH      = 440
	chartLeft   = 80
	chartRight  = 80
	chartTop    = 84
	chartBottom = 56
	// A phase's last second may be a sliver; a rate over a sliver is noise.
	chartMinSeconds = 0.25
)

// Series colours: claims in strong tones, the baseline in muted ones.
const (
	colClaimRate = "#1f77b4"
	colClaimP99  = "#d62728"
	colBaseRate  = "#8c8c8c"
	colBaseP99   = "#e7969c"
	colBaseBand  = "#eef1f5"
)

// niceScale returns an axis top and tick step of 1, 2 or 5 × 10^k that covers v in
// about five ticks.
func niceScale(v float64) (top, step float64) {
	if v <= 0 {
		return 1, 0.2
	}
	raw := v / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if step = m * mag; step >= raw {
			break
		}
	}
	return math.Ceil(v/step) * step, step
}

func fmtTick(v float64) string {
	switch {
	case v >= 1000 && math.Mod(v, 1000) == 0:
		return fmt.Sprintf("%gk", v/1000)
	case v == math.Trunc(v):
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%g", v)
}

// writeChart draws claims/s and p99 per second over the run as an SVG file: claims in
// blue (rate) and red (p99), the baseline in grey and pink on shaded phases.
func writeChart(path string, r *result, phases []*phaseStats) error {
	var pts []secondJSON
	for _, s := range r.Series {
		if s.Seconds >= chartMinSeconds {
			pts = append(pts, s)
		}
	}
	var maxT, maxRate, maxP99 float64
	for _, s := range r.Series {
		maxT = max(maxT, s.T+s.Seconds)
	}
	for _, s := range pts {
		maxRate = max(maxRate, s.PerSecond)
		maxP99 = max(maxP99, s.P99)
	}
	maxT = max(maxT, 1)
	rateTop, rateStep := niceScale(maxRate * 1.05)
	p99Top, p99Step := niceScale(maxP99 * 1.05)
	_, tStep := niceScale(maxT)
	plotW, plotH := float64(chartW-chartLeft-chartRight), float64(chartH-chartTop-chartBottom)
	x := func(t float64) float64 { return chartLeft + t/maxT*plotW }
	yRate := func(v float64) float64 { return chartTop + plotH - v/rateTop*plotH }
	yP99 := func(v float64) float64 { return chartTop + plotH - v/p99Top*plotH }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif" font-size="12">`+"\n",
		chartW, chartH, chartW, chartH)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/>`+"\n", chartW, chartH)
	title := fmt.Sprintf("claimVoucher: %.0f claims/s, p99 %s, %d users, concurrency %d", r.Claims.PerSecond,
		fmtMS(r.Claims.Latency.P99), r.Scenario.Users, r.Scenario.Concurrency)
	if r.Baseline != nil {
		title += fmt.Sprintf(" — %.2f × baseline (median)", r.Baseline.MedianRatio)
	}
	fmt.Fprintf(&b, `<text x="%d" y="24" font-size="15" font-weight="bold">%s</text>`+"\n", chartLeft, html.EscapeString(title))
	fmt.Fprintf(&b, `<text x="%d" y="42" fill="#555">%s</text>`+"\n", chartLeft,
		html.EscapeString(fmt.Sprintf("%s server (%s); stock %d, %d accepted", r.Server.Mode, r.Server.Backends, r.Scenario.InitialStock, r.Accepted)))

	// Baseline phases as shaded bands behind everything else.
	if len(phases) > 0 {
		t0 := phases[0].start
		for _, p := range phases {
			if p.kind != kindBaseline {
				continue
			}
			from, to := p.start.Sub(t0).Seconds(), p.end.Sub(t0).Seconds()
			fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="%.0f" fill="%s"/>`+"\n",
				x(from), chartTop, x(to)-x(from), plotH, colBaseBand)
		}
	}

	// Grid and axes.
	for v := 0.0; v <= rateTop+rateStep/2; v += rateStep {
		y := yRate(v)
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`+"\n", chartLeft, y, chartW-chartRight, y)
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end" fill="%s">%s</text>`+"\n", chartLeft-6, y+4, colClaimRate, fmtTick(v))
	}
	for v := 0.0; v <= p99Top+p99Step/2; v += p99Step {
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" fill="%s">%s</text>`+"\n", chartW-chartRight+6, yP99(v)+4, colClaimP99, fmtTick(v))
	}
	for t := 0.0; t <= maxT+tStep/100; t += tStep {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#999"/>`+"\n", x(t), chartTop+plotH, x(t), chartTop+plotH+4)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle">%s</text>`+"\n", x(t), chartTop+plotH+18, fmtTick(t))
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.0f" height="%.0f" fill="none" stroke="#999"/>`+"\n", chartLeft, chartTop, plotW, plotH)
	fmt.Fprintf(&b, `<text x="%.0f" y="%d" text-anchor="middle" fill="#555">seconds since the flood began</text>`+"\n", chartLeft+plotW/2, chartH-12)
	fmt.Fprintf(&b, `<text transform="translate(20 %.0f) rotate(-90)" text-anchor="middle" fill="%s">requests per second</text>`+"\n", chartTop+plotH/2, colClaimRate)
	fmt.Fprintf(&b, `<text transform="translate(%d %.0f) rotate(90)" text-anchor="middle" fill="%s">p99 latency (ms)</text>`+"\n", chartW-20, chartTop+plotH/2, colClaimP99)

	// One polyline per phase, so that interleaved phases are not joined across a gap.
	line := func(kind, colour, dash string, y func(secondJSON) float64) {
		var run []string
		flush := func() {
			if len(run) > 1 {
				fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>`+"\n", colour, dash, strings.Join(run, " "))
			}
			run = run[:0]
		}
		prevEnd := -1.0
		for _, s := range pts {
			if s.Kind != kind {
				continue
			}
			if prevEnd >= 0 && s.T-prevEnd > 0.01 {
				flush()
			}
			px, py := x(s.T+s.Seconds/2), y(s)
			run = append(run, fmt.Sprintf("%.1f,%.1f", px, py))
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>`+"\n", px, py, colour)
			prevEnd = s.T + s.Seconds
		}
		flush()
	}
	line(kindBaseline, colBaseRate, "", func(s secondJSON) float64 { return yRate(s.PerSecond) })
	line(kindBaseline, colBaseP99, ` stroke-dasharray="5 3"`, func(s secondJSON) float64 { return yP99(s.P99) })
	line(kindClaims, colClaimRate, "", func(s secondJSON) float64 { return yRate(s.PerSecond) })
	line(kindClaims, colClaimP99, ` stroke-dasharray="5 3"`, func(s secondJSON) float64 { return yP99(s.P99) })

	// Legend.
	legend := []struct{ colour, dash, label string }{
		{colClaimRate, "", "claims/s"},
		{colClaimP99, "5 3", "claim p99"},
	}
	if r.Baseline != nil {
		legend = append(legend,
			struct{ colour, dash, label string }{colBaseRate, "", "baseline ops/s (shaded phases)"},
			struct{ colour, dash, label string }{colBaseP99, "5 3", "baseline p99"})
	}
	lx := float64(chartLeft)
	for _, l := range legend {
		dash := ""
		if l.dash != "" {
			dash = fmt.Sprintf(` stroke-dasharray="%s"`, l.dash)
		}
		fmt.Fprintf(&b, `<line x1="%.0f" y1="62" x2="%.0f" y2="62" stroke="%s" stroke-width="2"%s/>`+"\n", lx, lx+24, l.colour, dash)
		fmt.Fprintf(&b, `<text x="%.0f" y="66">%s</text>`+"\n", lx+30, html.EscapeString(l.label))
		lx += 46 + float64(len(l.label))*6.5
	}
	b.WriteString("</svg>\n")
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
