package toolbox

// EnvVars names the environment variables the tools of this package are
// configured with. A sandboxed worker whose tools declare tool.Env gets
// these and no others (see agentcli.Tools.Env).
func EnvVars() []string {
	return []string{
		websearchSearxngEnv, websearchBraveKeyEnv, websearchTavilyKeyEnv, websearchBraveURLEnv, websearchTavilyURLEnv,
		weatherGeocodingEnv, weatherForecastEnv,
	}
}
