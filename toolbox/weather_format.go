package toolbox

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// weatherReport writes the answer of the weather tool: the place, a note on
// other places of the same name, the current conditions and one line per
// forecast day.
func weatherReport(c weatherChoice, fc *weatherForecast) string {
	var b strings.Builder
	p := c.Place
	fmt.Fprintf(&b, "Weather for %s (%s)", weatherLabel(p), weatherCoordinates(p.Latitude, p.Longitude))
	if fc.Timezone != "" {
		fmt.Fprintf(&b, ", times in %s", fc.Timezone)
		if fc.TimezoneAbbreviation != "" && fc.TimezoneAbbreviation != fc.Timezone {
			fmt.Fprintf(&b, " (%s)", fc.TimezoneAbbreviation)
		}
	}
	b.WriteString("\n")

	if len(c.Others) > 0 {
		labels := make([]string, len(c.Others))
		for i, o := range c.Others {
			labels[i] = weatherAltLabel(o)
		}
		example := c.Others[0]
		qual := example.Admin1
		if qual == "" || strings.EqualFold(qual, example.Name) {
			qual = example.Country
		}
		fmt.Fprintf(&b, "Note: other places are called %s too; this is the most populous. Others: %s. To get one of them, ask again with its region or country, for example \"%s, %s\".\n",
			p.Name, strings.Join(labels, "; "), example.Name, qual)
	}

	if cur := fc.Current; cur != nil && cur.Time != "" {
		u := fc.CurrentUnits
		var parts []string
		if cur.Temperature != nil {
			parts = append(parts, weatherValue(cur.Temperature, u["temperature_2m"]))
		}
		if cur.Apparent != nil {
			parts = append(parts, "feels like "+weatherValue(cur.Apparent, u["apparent_temperature"]))
		}
		if cur.WeatherCode != nil {
			parts = append(parts, weatherCodeText(int(*cur.WeatherCode)))
		}
		if cur.WindSpeed != nil {
			wind := "wind " + weatherValue(cur.WindSpeed, u["wind_speed_10m"])
			if cur.WindDirection != nil && *cur.WindSpeed > 0 {
				wind += " from " + weatherCompass(*cur.WindDirection)
			}
			parts = append(parts, wind)
		}
		if cur.Humidity != nil {
			parts = append(parts, "humidity "+weatherValue(cur.Humidity, u["relative_humidity_2m"]))
		}
		fmt.Fprintf(&b, "Now (%s): %s\n", cur.Time, strings.Join(parts, ", "))
	}

	if d := fc.Daily; d != nil && len(d.Time) > 0 {
		u := fc.DailyUnits
		b.WriteString("Daily forecast:\n")
		for i, day := range d.Time {
			var parts []string
			if v := weatherAt(d.WeatherCode, i); v != nil {
				parts = append(parts, weatherCodeText(int(*v)))
			}
			if v := weatherAt(d.TemperatureMin, i); v != nil {
				parts = append(parts, "low "+weatherValue(v, u["temperature_2m_min"]))
			}
			if v := weatherAt(d.TemperatureMax, i); v != nil {
				parts = append(parts, "high "+weatherValue(v, u["temperature_2m_max"]))
			}
			if v := weatherAt(d.PrecipitationSum, i); v != nil {
				s := "precipitation " + weatherValue(v, u["precipitation_sum"])
				if pr := weatherAt(d.PrecipitationProb, i); pr != nil {
					s += " (" + weatherValue(pr, u["precipitation_probability_max"]) + " chance)"
				}
				parts = append(parts, s)
			}
			if v := weatherAt(d.WindSpeedMax, i); v != nil {
				parts = append(parts, "wind up to "+weatherValue(v, u["wind_speed_10m_max"]))
			}
			if len(parts) == 0 {
				parts = append(parts, "no data")
			}
			fmt.Fprintf(&b, "%s: %s\n", day, strings.Join(parts, ", "))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// weatherAt returns xs[i], or nil when xs is too short.
func weatherAt(xs []*float64, i int) *float64 {
	if i < len(xs) {
		return xs[i]
	}
	return nil
}

// weatherValue formats v with its unit as the API names it, for example
// "21.4°C", "48%" or "11.2 km/h".
func weatherValue(v *float64, unit string) string {
	s := weatherNumber(*v)
	switch {
	case unit == "":
		return s
	case unit == "%" || strings.HasPrefix(unit, "°"):
		return s + unit
	}
	return s + " " + unit
}

// weatherNumber formats x in the fewest digits that read back as x.
func weatherNumber(x float64) string {
	if x == 0 {
		x = 0 // no "-0"
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// weatherCoordinates formats a position as, for example,
// "52.52437°N, 13.41053°E".
func weatherCoordinates(lat, lon float64) string {
	ns, ew := "N", "E"
	if lat < 0 {
		ns = "S"
	}
	if lon < 0 {
		ew = "W"
	}
	return weatherNumber(math.Abs(lat)) + "°" + ns + ", " + weatherNumber(math.Abs(lon)) + "°" + ew
}
