"""Pure pydantic v2 models of the API's resources, one module per noun. No I/O, no Textual, no httpx."""
