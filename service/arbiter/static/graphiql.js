// GraphiQL (its UMD build, React 18) against this service's POST /graphql.
(function () {
  var example = [
    "# Arbiter's GraphQL API: one field per ruleset takes a whole state (a JSON scalar)",
    "# and answers many questions of it in one round trip. The documentation explorer",
    "# (the book icon) lists every field. Try:",
    "{",
    "  rulesets {",
    "    id",
    "    version",
    "    queries",
    "  }",
    "}",
    "",
  ].join("\n");
  var fetcher = GraphiQL.createFetcher({ url: "/graphql" });
  var root = ReactDOM.createRoot(document.getElementById("graphiql"));
  root.render(React.createElement(GraphiQL, {
    fetcher: fetcher,
    defaultQuery: example,
    defaultEditorToolsVisibility: true,
  }));
})();
