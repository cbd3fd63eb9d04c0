"""API references and insights: OpenAPI specs, readers' conversations, issues clusters, the agent."""
