package toolbox

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// weatherF returns a pointer to x, as the forecast's decoded values are.
func weatherF(x float64) *float64 { return &x }

// TestWeatherReportEdges writes answers at the edges of the report: a calm
// wind (no direction is named for 0 km/h), a place at 0° latitude and
// longitude (north and east), a daily object without days (no daily
// section), and daily arrays shorter than the list of days (a missing
// value is left out, a day without any says so).
func TestWeatherReportEdges(t *testing.T) {
	tests := []struct {
		name string
		c    weatherChoice
		fc   *weatherForecast
		want string
	}{
		{
			name: "calm at 0°, 0°, no days",
			c:    weatherChoice{Place: weatherPlace{Name: "Null Island"}},
			fc: &weatherForecast{
				CurrentUnits: map[string]string{"wind_speed_10m": "km/h"},
				Current:      &weatherCurrent{Time: "2024-06-03T14:15", WindSpeed: weatherF(0), WindDirection: weatherF(90)},
				Daily:        &weatherDaily{Time: []string{}},
			},
			want: "Weather for Null Island (0°N, 0°E)\nNow (2024-06-03T14:15): wind 0 km/h",
		},
		{
			name: "short daily arrays",
			c:    weatherChoice{Place: weatherPlace{Name: "Lima", Country: "Peru", Latitude: -12.04318, Longitude: -77.02824}},
			fc: &weatherForecast{
				Current:    &weatherCurrent{Time: ""}, // no current conditions
				DailyUnits: map[string]string{"temperature_2m_max": "°C", "precipitation_sum": "mm"},
				Daily: &weatherDaily{
					Time:             []string{"2024-06-03", "2024-06-04", "2024-06-05"},
					WeatherCode:      []*float64{weatherF(0)},
					TemperatureMax:   []*float64{weatherF(20), weatherF(21.5)},
					PrecipitationSum: []*float64{nil, weatherF(0.2)},
				},
			},
			want: strings.Join([]string{
				"Weather for Lima, Peru (12.04318°S, 77.02824°W)",
				"Daily forecast:",
				"2024-06-03: clear sky, high 20°C",
				"2024-06-04: high 21.5°C, precipitation 0.2 mm",
				"2024-06-05: no data",
			}, "\n"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, weatherReport(tt.c, tt.fc)); diff != "" {
				t.Errorf("weatherReport (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWeatherErrorObjectIn200 gets an Open-Meteo error object with status
// 200: it is an error all the same, with the service's reason.
func TestWeatherErrorObjectIn200(t *testing.T) {
	w, _ := newWeatherFake(t,
		httpxServeBody(http.StatusOK, "application/json", `{"error": true, "reason": "Parameter name must not be empty."}`), nil)
	_, err := w.Execute(context.Background(), WeatherArgs{City: "Berlin"})
	checkStatusError(t, err, `looking up the place "Berlin": Open-Meteo geocoding answered HTTP 200 OK: Parameter name must not be empty.`, http.StatusOK)
}

// TestWeatherDailyOnly gets a forecast without current conditions: with
// days it is answered, without days it is an error.
func TestWeatherDailyOnly(t *testing.T) {
	berlin := httpxServeFixture(t, "weather", "geocoding_berlin.json", http.StatusOK)
	daily := `{"latitude": 52.52, "longitude": 13.419, "daily_units": {"time": "iso8601", "weather_code": "wmo code"}, "daily": {"time": ["2024-06-03"], "weather_code": [2]}}`
	w, _ := newWeatherFake(t, berlin, httpxServeBody(http.StatusOK, "application/json", daily))
	got, err := w.Execute(context.Background(), WeatherArgs{City: "Berlin", Days: 1})
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	want := "Weather for Berlin, Deutschland (52.52437°N, 13.41053°E)\nDaily forecast:\n2024-06-03: partly cloudy"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Execute output (-want +got):\n%s", diff)
	}

	noDays := `{"latitude": 52.52, "longitude": 13.419, "daily_units": {"time": "iso8601"}, "daily": {"time": []}}`
	w, _ = newWeatherFake(t, berlin, httpxServeBody(http.StatusOK, "application/json", noDays))
	_, err = w.Execute(context.Background(), WeatherArgs{City: "Berlin", Days: 1})
	want = "getting the forecast for Berlin, Deutschland: Open-Meteo forecast sent neither current conditions nor a daily forecast; try again later"
	if err == nil || err.Error() != want {
		t.Errorf("Execute error = %v, want %q", err, want)
	}
}

// TestWeatherChooseShareAndOrder names a namesake of exactly a tenth of the
// chosen place's population and not one just below; it lists several
// namesakes most populous first, keeps the API's order on a tie, and names
// at most three.
func TestWeatherChooseShareAndOrder(t *testing.T) {
	place := func(id int64, admin1 string, pop int64) weatherPlace {
		return weatherPlace{ID: id, Name: "Springfield", Country: "United States", Admin1: admin1, Population: pop}
	}
	il := place(1, "Illinois", 1000)
	mo, oh := place(2, "Missouri", 100), place(3, "Ohio", 99)
	or, ma, ma2, ky := place(4, "Oregon", 200), place(5, "Massachusetts", 500), place(6, "Vermont", 500), place(7, "Kentucky", 300)
	tests := []struct {
		name    string
		results []weatherPlace
		want    weatherChoice
	}{
		{"a tenth is strong, less is not", []weatherPlace{il, mo, oh}, weatherChoice{Place: il, Others: []weatherPlace{mo}}},
		{"most populous first, ties in API order, three at most", []weatherPlace{il, or, ma, ma2, ky}, weatherChoice{Place: il, Others: []weatherPlace{ma, ma2, ky}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, weatherChoose(tt.results)); diff != "" {
				t.Errorf("weatherChoose (-want +got):\n%s", diff)
			}
		})
	}
}
