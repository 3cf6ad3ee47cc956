package toolreg

// ToolEnv names the environment variables this repository's tools are
// configured with: web_search's backends and weather's endpoints. A
// sandboxed worker whose tools declare tool.Env gets these and no others.
func ToolEnv() []string {
	return []string{
		"SEARXNG_URL", "BRAVE_API_KEY", "TAVILY_API_KEY", "BRAVE_SEARCH_URL", "TAVILY_URL",
		"OPEN_METEO_GEOCODING_URL", "OPEN_METEO_FORECAST_URL",
	}
}

// ToolSecrets names those of ToolEnv whose values are secrets: the agent
// never shows them, on stderr, in -json events or in tool results.
func ToolSecrets() []string { return []string{"BRAVE_API_KEY", "TAVILY_API_KEY"} }
