package toolbox

import (
	"fmt"
	"math"
)

// weatherCodeText describes a WMO weather interpretation code (WW) in words,
// following the table in Open-Meteo's forecast documentation
// (https://open-meteo.com/en/docs, "WMO Weather interpretation codes").
func weatherCodeText(code int) string {
	switch code {
	case 0:
		return "clear sky"
	case 1:
		return "mainly clear"
	case 2:
		return "partly cloudy"
	case 3:
		return "overcast"
	case 45:
		return "fog"
	case 48:
		return "depositing rime fog"
	case 51:
		return "light drizzle"
	case 53:
		return "moderate drizzle"
	case 55:
		return "dense drizzle"
	case 56:
		return "light freezing drizzle"
	case 57:
		return "dense freezing drizzle"
	case 61:
		return "slight rain"
	case 63:
		return "moderate rain"
	case 65:
		return "heavy rain"
	case 66:
		return "light freezing rain"
	case 67:
		return "heavy freezing rain"
	case 71:
		return "slight snow fall"
	case 73:
		return "moderate snow fall"
	case 75:
		return "heavy snow fall"
	case 77:
		return "snow grains"
	case 80:
		return "slight rain showers"
	case 81:
		return "moderate rain showers"
	case 82:
		return "violent rain showers"
	case 85:
		return "slight snow showers"
	case 86:
		return "heavy snow showers"
	case 95:
		return "thunderstorm"
	case 96:
		return "thunderstorm with slight hail"
	case 99:
		return "thunderstorm with heavy hail"
	}
	return fmt.Sprintf("weather code %d", code)
}

// weatherCompass names the compass point, of eight, that a wind blowing from
// deg degrees comes from.
func weatherCompass(deg float64) string {
	points := [...]string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}
	d := int(math.Floor((deg+22.5)/45)) % 8
	if d < 0 {
		d += 8
	}
	return points[d]
}
