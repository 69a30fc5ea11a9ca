// /docs: Swagger UI on the server's schema. The bundle (a classic deferred script, run
// before this module) is served by this server: see app/http/docs.py. FastAPI's own page
// does the same from an inline script, which the Content-Security-Policy forbids.

/* global SwaggerUIBundle */
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  // No deep links: their anchors inside each operation's summary button are focusable
  // elements nested in a button (axe-core: nested-interactive).
  deepLinking: false,
  showExtensions: true,
  showCommonExtensions: true,
  validatorUrl: null, // no badge fetched from validator.swagger.io
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
