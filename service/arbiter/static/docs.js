// Swagger UI over the service's own OpenAPI document. validatorUrl: null keeps Swagger UI
// from asking an online validator for a badge: no request leaves the machine.
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
});
