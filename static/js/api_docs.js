/* The API docs page (templates/api/docs.html): starts Swagger UI (the sidecar's static files, loaded
   just before this one). drf-spectacular's swagger_ui.js, made a static file: the page's
   Content-Security-Policy runs no inline script. What the view knows comes in json_script blocks
   and the data- attributes of #swagger-ui. */
(() => {
  "use strict";
  const holder = document.getElementById("swagger-ui");
  if (!holder || typeof SwaggerUIBundle === "undefined") return;
  const json = (id, fallback) => {
    const node = document.getElementById(id);
    if (!node) return fallback;
    let value = JSON.parse(node.textContent);
    if (typeof value === "string") value = value.trim() ? JSON.parse(value) : fallback;  // the view's json.dumps text
    return value;
  };
  const swaggerSettings = json("swagger-ui-settings", {});
  const oauth2Config = json("swagger-ui-oauth2", {});
  const schemaAuthNames = json("swagger-ui-auth-names", []);
  const schemaUrl = holder.dataset.schemaUrl;
  const csrfHeader = holder.dataset.csrfHeader, csrfToken = holder.dataset.csrfToken;
  let schemaAuthFailed = false;
  let ui = null;
  const plugins = [];

  const reloadSchema = (ori) => (...args) => {
    schemaAuthFailed = false;
    setTimeout(() => ui.specActions.download());
    return ori(...args);
  };
  if (schemaAuthNames.length > 0) {
    plugins.push(() => ({
      statePlugins: { auth: { wrapActions: { authorizeOauth2: reloadSchema, authorize: reloadSchema, logout: reloadSchema } } },
    }));
  }

  const isSchemaUrl = (url) => ui !== null && url === new URL(ui.getConfigs().url, document.baseURI).href;

  const responseInterceptor = (response) => {
    if (!response.ok && isSchemaUrl(response.url)) {
      console.warn("schema request received '" + response.status + "'. disabling credentials for schema till logout.");
      if (!schemaAuthFailed) {
        schemaAuthFailed = true;  // only retry once to prevent an endless loop
        setTimeout(() => ui.specActions.download());
      }
    }
    return response;
  };

  const injectAuthCredentials = (request) => {
    let authorized;
    if (ui !== null) {
      const state = ui.getState().get("auth").get("authorized");
      if (state !== undefined && Object.keys(state.toJS()).length !== 0) authorized = state.toJS();
    } else if (![undefined, "{}"].includes(localStorage.authorized)) {
      authorized = JSON.parse(localStorage.authorized);
    }
    if (authorized === undefined) return;
    for (const authName of schemaAuthNames) {
      const authDef = authorized[authName];
      if (authDef === undefined || authDef.schema === undefined) continue;
      if (authDef.schema.type === "http" && authDef.schema.scheme === "bearer") {
        request.headers.Authorization = "Bearer " + authDef.value;
        return;
      } else if (authDef.schema.type === "http" && authDef.schema.scheme === "basic") {
        request.headers.Authorization = "Basic " + btoa(authDef.value.username + ":" + authDef.value.password);
        return;
      } else if (authDef.schema.type === "apiKey" && authDef.schema.in === "header") {
        request.headers[authDef.schema.name] = authDef.value;
        return;
      } else if (authDef.schema.type === "oauth2" && authDef.token.token_type === "Bearer") {
        request.headers.Authorization = `Bearer ${authDef.token.access_token}`;
        return;
      }
    }
  };

  const requestInterceptor = (request) => {
    if (request.loadSpec && schemaAuthNames.length > 0 && !schemaAuthFailed) {
      try { injectAuthCredentials(request); } catch (e) { console.error("schema auth injection failed with error: ", e); }
    }
    // "Try it out" while logged in: the session's CSRF token on every unsafe same-origin request
    if (!["GET", undefined].includes(request.method) && request.credentials === "same-origin" && csrfHeader && csrfToken) {
      request.headers[csrfHeader] = csrfToken;
    }
    return request;
  };

  ui = SwaggerUIBundle({
    url: schemaUrl,
    dom_id: "#swagger-ui",
    presets: [SwaggerUIBundle.presets.apis],
    plugins,
    layout: "BaseLayout",
    requestInterceptor,
    responseInterceptor,
    ...swaggerSettings,
  });
  if (oauth2Config && Object.keys(oauth2Config).length) ui.initOAuth(oauth2Config);
})();
