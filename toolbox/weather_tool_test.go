package toolbox

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// newWeatherFake starts one server playing both Open-Meteo services and
// returns a Weather tool pointed at it.
func newWeatherFake(t *testing.T, geocoding, forecast http.HandlerFunc) (*Weather, *httpxFake) {
	t.Helper()
	routes := map[string]http.HandlerFunc{}
	if geocoding != nil {
		routes["/v1/search"] = geocoding
	}
	if forecast != nil {
		routes["/v1/forecast"] = forecast
	}
	f := newHTTPXFake(t, routes)
	w := &Weather{getenv: httpxEnv(map[string]string{
		weatherGeocodingEnv: f.URL,
		weatherForecastEnv:  f.URL + "/",
	})}
	return w, f
}

func TestWeatherDefinition(t *testing.T) {
	d := (&Weather{}).Definition()
	if d.ID != "weather" || d.Description == "" || d.Timeout <= 0 {
		t.Errorf("Definition() = %+v; want ID weather, a description and a timeout", d)
	}
}

func TestWeatherExecuteBerlin(t *testing.T) {
	w, f := newWeatherFake(t,
		httpxServeFixture(t, "weather", "geocoding_berlin.json", http.StatusOK),
		httpxServeFixture(t, "weather", "forecast_berlin.json", http.StatusOK))
	got, err := w.Execute(context.Background(), WeatherArgs{City: " Berlin "})
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	want := strings.Join([]string{
		"Weather for Berlin, Deutschland (52.52437°N, 13.41053°E), times in Europe/Berlin (CEST)",
		"Now (2024-06-03T14:15): 21.4°C, feels like 20.9°C, partly cloudy, wind 11.2 km/h from W, humidity 48%",
		"Daily forecast:",
		"2024-06-03: partly cloudy, low 13.1°C, high 22.6°C, precipitation 0 mm (10% chance), wind up to 18.4 km/h",
		"2024-06-04: slight rain, low 12.4°C, high 19.8°C, precipitation 4.3 mm (65% chance), wind up to 21.6 km/h",
		"2024-06-05: thunderstorm, low 14°C, high 24.1°C, precipitation 11.7 mm, wind up to 30.2 km/h",
	}, "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Execute output (-want +got):\n%s", diff)
	}

	reqs := f.requests()
	if len(reqs) != 2 {
		t.Fatalf("sent %d requests, want 2: %+v", len(reqs), reqs)
	}
	wantGeo := url.Values{"name": {"Berlin"}, "count": {"10"}, "language": {"en"}, "format": {"json"}}
	if diff := cmp.Diff(wantGeo, reqs[0].Query); diff != "" {
		t.Errorf("geocoding query (-want +got):\n%s", diff)
	}
	wantFc := url.Values{
		"latitude":         {"52.52437"},
		"longitude":        {"13.41053"},
		"current":          {"temperature_2m,apparent_temperature,relative_humidity_2m,weather_code,wind_speed_10m,wind_direction_10m"},
		"daily":            {"weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,precipitation_probability_max,wind_speed_10m_max"},
		"forecast_days":    {"3"},
		"temperature_unit": {"celsius"},
		"timezone":         {"auto"},
	}
	if diff := cmp.Diff(wantFc, reqs[1].Query); diff != "" {
		t.Errorf("forecast query (-want +got):\n%s", diff)
	}
	for i, r := range reqs {
		if r.Method != http.MethodGet {
			t.Errorf("request %d method = %s, want GET", i, r.Method)
		}
		if ua := r.Header.Get("User-Agent"); ua != "toolreg/1 (+https://github.com/toolreg/toolreg)" {
			t.Errorf("request %d User-Agent = %q", i, ua)
		}
		if a := r.Header.Get("Accept"); a != "application/json" {
			t.Errorf("request %d Accept = %q, want application/json", i, a)
		}
	}
	if reqs[0].Path != "/v1/search" || reqs[1].Path != "/v1/forecast" {
		t.Errorf("paths = %s, %s; want /v1/search, /v1/forecast", reqs[0].Path, reqs[1].Path)
	}
}

func TestWeatherExecuteFahrenheitAndDays(t *testing.T) {
	w, f := newWeatherFake(t,
		httpxServeFixture(t, "weather", "geocoding_berlin.json", http.StatusOK),
		httpxServeFixture(t, "weather", "forecast_berlin.json", http.StatusOK))
	if _, err := w.Execute(context.Background(), WeatherArgs{City: "Berlin", Days: 16, Units: "Fahrenheit"}); err != nil {
		t.Fatalf("Execute: %v", err)
	}
	q := f.requests()[1].Query
	got := map[string]string{}
	for _, k := range []string{"forecast_days", "temperature_unit", "wind_speed_unit", "precipitation_unit"} {
		got[k] = q.Get(k)
	}
	want := map[string]string{"forecast_days": "16", "temperature_unit": "fahrenheit", "wind_speed_unit": "mph", "precipitation_unit": "inch"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("forecast query (-want +got):\n%s", diff)
	}
}

func TestWeatherExecuteAmbiguous(t *testing.T) {
	w, f := newWeatherFake(t,
		httpxServeFixture(t, "weather", "geocoding_birmingham.json", http.StatusOK),
		httpxServeFixture(t, "weather", "forecast_berlin.json", http.StatusOK))
	got, err := w.Execute(context.Background(), WeatherArgs{City: "Birmingham", Days: 1})
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	lines := strings.Split(got, "\n")
	wantHead := []string{
		"Weather for Birmingham, England, United Kingdom (52.48142°N, 1.89983°W), times in Europe/Berlin (CEST)",
		`Note: other places are called Birmingham too; this is the most populous. Others: Birmingham (Alabama, United States). To get one of them, ask again with its region or country, for example "Birmingham, Alabama".`,
	}
	if diff := cmp.Diff(wantHead, lines[:2]); diff != "" {
		t.Errorf("answer head (-want +got):\n%s", diff)
	}
	if lat := f.requests()[1].Query.Get("latitude"); lat != "52.48142" {
		t.Errorf("forecast latitude = %s, want the United Kingdom's 52.48142", lat)
	}
}

func TestWeatherExecuteQualifier(t *testing.T) {
	w, f := newWeatherFake(t,
		httpxServeFixture(t, "weather", "geocoding_paris.json", http.StatusOK),
		httpxServeFixture(t, "weather", "forecast_berlin.json", http.StatusOK))
	got, err := w.Execute(context.Background(), WeatherArgs{City: "Paris, texas"})
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	if want := "Weather for Paris, Texas, United States (33.66094°N, 95.55551°W)"; !strings.HasPrefix(got, want) {
		t.Errorf("answer starts %q, want prefix %q", strings.SplitN(got, "\n", 2)[0], want)
	}
	if strings.Contains(got, "Note:") {
		t.Errorf("answer has a note on namesakes although the qualifier picked one:\n%s", got)
	}
	reqs := f.requests()
	if diff := cmp.Diff(url.Values{"name": {"Paris"}, "count": {"100"}, "language": {"en"}, "format": {"json"}}, reqs[0].Query); diff != "" {
		t.Errorf("geocoding query (-want +got):\n%s", diff)
	}
	if lon := reqs[1].Query.Get("longitude"); lon != "-95.55551" {
		t.Errorf("forecast longitude = %s, want -95.55551", lon)
	}
}

func TestWeatherExecuteQualifierNoMatch(t *testing.T) {
	w, f := newWeatherFake(t, httpxServeFixture(t, "weather", "geocoding_paris.json", http.StatusOK), nil)
	_, err := w.Execute(context.Background(), WeatherArgs{City: "Paris, Narnia"})
	want := `places called "Paris" were found, but none in "Narnia"; some that were found: Paris (Île-de-France, France); Paris (Texas, United States); Paris (Tennessee, United States). Ask again with one of these regions or countries after the comma, or with the name alone`
	if err == nil || err.Error() != want {
		t.Errorf("Execute error = %v\nwant %s", err, want)
	}
	if n := len(f.requests()); n != 1 {
		t.Errorf("sent %d requests, want only the geocoding one", n)
	}
}

func TestWeatherExecuteUnknownPlace(t *testing.T) {
	for _, fixture := range []string{"geocoding_none.json", "empty results array"} {
		t.Run(fixture, func(t *testing.T) {
			h := httpxServeBody(http.StatusOK, "application/json", `{"results": [], "generationtime_ms": 0.3}`)
			if strings.HasSuffix(fixture, ".json") {
				h = httpxServeFixture(t, "weather", fixture, http.StatusOK)
			}
			w, _ := newWeatherFake(t, h, nil)
			_, err := w.Execute(context.Background(), WeatherArgs{City: "Xyzzyville"})
			want := `no place called "Xyzzyville" was found; check the spelling, try the English or the local name, or a larger town nearby`
			if err == nil || err.Error() != want {
				t.Errorf("Execute error = %v\nwant %s", err, want)
			}
		})
	}
}

func TestWeatherExecuteServerErrors(t *testing.T) {
	berlin := httpxServeFixture(t, "weather", "geocoding_berlin.json", http.StatusOK)
	tests := []struct {
		name       string
		geocoding  http.HandlerFunc
		forecast   http.HandlerFunc
		wantStatus int
		wantErr    string
	}{
		{
			name:       "geocoding 400 with reason",
			geocoding:  httpxServeFixture(t, "weather", "geocoding_error.json", http.StatusBadRequest),
			wantStatus: http.StatusBadRequest,
			wantErr:    `looking up the place "Berlin": Open-Meteo geocoding answered HTTP 400 Bad Request: Parameter count must be between 1 and 100.`,
		},
		{
			name:       "forecast 400 with reason",
			geocoding:  berlin,
			forecast:   httpxServeFixture(t, "weather", "forecast_error.json", http.StatusBadRequest),
			wantStatus: http.StatusBadRequest,
			wantErr:    "getting the forecast for Berlin, Deutschland: Open-Meteo forecast answered HTTP 400 Bad Request: Cannot initialize WeatherVariable from invalid String value tempeture_2m for key hourly",
		},
		{
			name:       "forecast 502 with an HTML page",
			geocoding:  berlin,
			forecast:   httpxServeBody(http.StatusBadGateway, "text/html", "<html><body><h1>502 Bad Gateway</h1></body></html>"),
			wantStatus: http.StatusBadGateway,
			wantErr:    "getting the forecast for Berlin, Deutschland: Open-Meteo forecast answered HTTP 502 Bad Gateway; the service has a problem of its own, try again later",
		},
		{
			name:       "geocoding 429 with plain text",
			geocoding:  httpxServeBody(http.StatusTooManyRequests, "text/plain", "Too many requests\n"),
			wantStatus: http.StatusTooManyRequests,
			wantErr:    `looking up the place "Berlin": Open-Meteo geocoding answered HTTP 429 Too Many Requests: Too many requests; the service is rate limiting requests, wait a little before trying again`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, _ := newWeatherFake(t, tt.geocoding, tt.forecast)
			_, err := w.Execute(context.Background(), WeatherArgs{City: "Berlin"})
			checkStatusError(t, err, tt.wantErr, tt.wantStatus)
		})
	}
}

func TestWeatherExecuteMalformedJSON(t *testing.T) {
	berlin := httpxServeFixture(t, "weather", "geocoding_berlin.json", http.StatusOK)
	tests := []struct {
		name      string
		geocoding http.HandlerFunc
		forecast  http.HandlerFunc
		wantErr   string
	}{
		{"geocoding truncated", httpxServeBody(http.StatusOK, "application/json", `{"results": [{"name": "Ber`), nil,
			"Open-Meteo geocoding sent a response that is not the JSON it documents"},
		{"forecast not JSON", berlin, httpxServeBody(http.StatusOK, "text/html", "<html>maintenance</html>"),
			"Open-Meteo forecast sent a response that is not the JSON it documents"},
		{"forecast wrong shape", berlin, httpxServeBody(http.StatusOK, "application/json", `{"daily": {"time": "today"}}`),
			"Open-Meteo forecast sent a response that is not the JSON it documents"},
		{"forecast empty object", berlin, httpxServeBody(http.StatusOK, "application/json", `{}`),
			"Open-Meteo forecast sent neither current conditions nor a daily forecast"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, _ := newWeatherFake(t, tt.geocoding, tt.forecast)
			_, err := w.Execute(context.Background(), WeatherArgs{City: "Berlin"})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Execute error = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestWeatherExecuteTimeout(t *testing.T) {
	w, _ := newWeatherFake(t, httpxServeFixture(t, "weather", "geocoding_berlin.json", http.StatusOK), httpxServeStall(t))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := w.Execute(ctx, WeatherArgs{City: "Berlin"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Execute error = %v, want one wrapping context.DeadlineExceeded", err)
	}
	if want := "getting the forecast for Berlin, Deutschland: Open-Meteo forecast did not answer in time; try again later"; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

func TestWeatherExecuteCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stall := httpxServeStall(t)
	w, _ := newWeatherFake(t, func(rw http.ResponseWriter, r *http.Request) {
		cancel() // the caller gives up while the request is under way
		stall(rw, r)
	}, nil)
	_, err := w.Execute(ctx, WeatherArgs{City: "Berlin"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Execute error = %v, want one wrapping context.Canceled", err)
	}
}

func TestWeatherExecuteBadArguments(t *testing.T) {
	tests := []struct {
		args    WeatherArgs
		wantErr string
	}{
		{WeatherArgs{City: "  "}, "city is empty: give a city or place name, for example Berlin, or Paris, Texas"},
		{WeatherArgs{City: ", Texas"}, "city is empty: give a city or place name, for example Berlin, or Paris, Texas"},
		{WeatherArgs{City: "Berlin", Days: 17}, "days is 17, but the forecast covers 1 to 16 days; leave days out for 3"},
		{WeatherArgs{City: "Berlin", Days: -2}, "days is -2, but the forecast covers 1 to 16 days; leave days out for 3"},
		{WeatherArgs{City: "Berlin", Units: "kelvin"}, `units is "kelvin", but only celsius and fahrenheit are supported; leave units out for celsius`},
	}
	for _, tt := range tests {
		// Any request would fail the test: the fake has no routes.
		w, f := newWeatherFake(t, nil, nil)
		_, err := w.Execute(context.Background(), tt.args)
		if err == nil || err.Error() != tt.wantErr {
			t.Errorf("Execute(%+v) error = %v\nwant %s", tt.args, err, tt.wantErr)
		}
		if n := len(f.requests()); n != 0 {
			t.Errorf("Execute(%+v) sent %d requests, want none", tt.args, n)
		}
	}
}

func TestWeatherExecuteBadBaseURL(t *testing.T) {
	w := &Weather{getenv: httpxEnv(map[string]string{weatherGeocodingEnv: "geocoding.example"})}
	_, err := w.Execute(context.Background(), WeatherArgs{City: "Berlin"})
	want := `the environment variable OPEN_METEO_GEOCODING_URL is "geocoding.example", which is not an http or https URL; the operator must fix it`
	if err == nil || err.Error() != want {
		t.Errorf("Execute error = %v\nwant %s", err, want)
	}
}

func TestWeatherExecuteReadsEnvironment(t *testing.T) {
	f := newHTTPXFake(t, map[string]http.HandlerFunc{
		"/geo/v1/search":  httpxServeFixture(t, "weather", "geocoding_berlin.json", http.StatusOK),
		"/fc/v1/forecast": httpxServeFixture(t, "weather", "forecast_berlin.json", http.StatusOK),
	})
	t.Setenv(weatherGeocodingEnv, f.URL+"/geo")
	t.Setenv(weatherForecastEnv, f.URL+"/fc/")
	var w Weather // the zero value reads the process environment
	if _, err := w.Execute(context.Background(), WeatherArgs{City: "Berlin"}); err != nil {
		t.Fatalf("Execute: %v", err)
	}
	if n := len(f.requests()); n != 2 {
		t.Errorf("sent %d requests to the configured URLs, want 2", n)
	}
}

func TestWeatherDefaultBaseURLs(t *testing.T) {
	for _, tt := range []struct{ env, def string }{
		{weatherGeocodingEnv, "https://geocoding-api.open-meteo.com"},
		{weatherForecastEnv, "https://api.open-meteo.com"},
	} {
		u, err := httpxBaseURL(tt.env, "", tt.def)
		if err != nil {
			t.Fatalf("httpxBaseURL(%s): %v", tt.env, err)
		}
		if got := u.String(); got != tt.def {
			t.Errorf("base for %s = %s, want %s", tt.env, got, tt.def)
		}
	}
	if got, want := weatherGeocodingDefaultURL, "https://geocoding-api.open-meteo.com"; got != want {
		t.Errorf("geocoding default = %s, want %s", got, want)
	}
	if got, want := weatherForecastDefaultURL, "https://api.open-meteo.com"; got != want {
		t.Errorf("forecast default = %s, want %s", got, want)
	}
}

func TestWeatherChoose(t *testing.T) {
	uk := weatherPlace{ID: 1, Name: "Birmingham", Country: "United Kingdom", Admin1: "England", Population: 984333}
	al := weatherPlace{ID: 2, Name: "Birmingham", Country: "United States", Admin1: "Alabama", Population: 212237}
	mi := weatherPlace{ID: 3, Name: "Birmingham", Country: "United States", Admin1: "Michigan", Population: 20103}
	ukBorough := weatherPlace{ID: 4, Name: "Birmingham", Country: "United Kingdom", Admin1: "England", Population: 500000}
	fuzzy := weatherPlace{ID: 5, Name: "Birmingham Heights", Country: "Canada", Admin1: "Ontario", Population: 5000000}
	noPopA := weatherPlace{ID: 6, Name: "Springfield", Country: "United States", Admin1: "Vermont"}
	noPopB := weatherPlace{ID: 7, Name: "Springfield", Country: "Australia", Admin1: "Queensland"}
	tests := []struct {
		name    string
		results []weatherPlace
		want    weatherChoice
	}{
		{"single", []weatherPlace{uk}, weatherChoice{Place: uk}},
		{"most populous wins, strong namesake named", []weatherPlace{al, mi, uk}, weatherChoice{Place: uk, Others: []weatherPlace{al}}},
		{"same region is the same place", []weatherPlace{ukBorough, uk}, weatherChoice{Place: uk}},
		{"other names are ignored", []weatherPlace{uk, fuzzy}, weatherChoice{Place: uk}},
		{"unknown populations keep the API's order and name all", []weatherPlace{noPopA, noPopB}, weatherChoice{Place: noPopA, Others: []weatherPlace{noPopB}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, weatherChoose(tt.results)); diff != "" {
				t.Errorf("weatherChoose (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWeatherSplitCity(t *testing.T) {
	tests := []struct {
		in    string
		name  string
		quals []string
	}{
		{"Berlin", "Berlin", nil},
		{"Paris, Texas", "Paris", []string{"Texas"}},
		{" Springfield ,Illinois, US ,", "Springfield", []string{"Illinois", "US"}},
	}
	for _, tt := range tests {
		name, quals := weatherSplitCity(tt.in)
		if diff := cmp.Diff([]any{tt.name, tt.quals}, []any{name, quals}); diff != "" {
			t.Errorf("weatherSplitCity(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestWeatherCodeText(t *testing.T) {
	got := map[int]string{}
	for _, c := range []int{0, 1, 2, 3, 45, 48, 51, 56, 61, 66, 71, 77, 80, 85, 95, 96, 99, 42} {
		got[c] = weatherCodeText(c)
	}
	want := map[int]string{
		0: "clear sky", 1: "mainly clear", 2: "partly cloudy", 3: "overcast",
		45: "fog", 48: "depositing rime fog", 51: "light drizzle", 56: "light freezing drizzle",
		61: "slight rain", 66: "light freezing rain", 71: "slight snow fall", 77: "snow grains",
		80: "slight rain showers", 85: "slight snow showers", 95: "thunderstorm",
		96: "thunderstorm with slight hail", 99: "thunderstorm with heavy hail", 42: "weather code 42",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("weatherCodeText (-want +got):\n%s", diff)
	}
}

func TestWeatherCompass(t *testing.T) {
	got := map[float64]string{}
	for _, d := range []float64{0, 22.4, 22.5, 90, 180, 268, 315, 337.6, 360, -50} {
		got[d] = weatherCompass(d)
	}
	want := map[float64]string{0: "N", 22.4: "N", 22.5: "NE", 90: "E", 180: "S", 268: "W", 315: "NW", 337.6: "N", 360: "N", -50: "NW"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("weatherCompass (-want +got):\n%s", diff)
	}
}
