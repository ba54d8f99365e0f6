// GraphiQL (its UMD build, React 18) against this service's POST /graphql. It opens with a
// tab per ruleset: a query whose state goes in as a variable (the ruleset's example state,
// from /openapi.json), ready to run, then a tab listing the rulesets.
(function () {
  var h = React.createElement;

  function lowerCamel(id) {
    return id.replace(/_([a-z0-9])/g, function (_, c) { return c.toUpperCase(); });
  }

  function upperCamel(id) {
    var camel = lowerCamel(id);
    return camel.charAt(0).toUpperCase() + camel.slice(1);
  }

  function listing() {
    return {
      query: [
        "# Arbiter's GraphQL API: one field per ruleset takes a whole state (a JSON scalar)",
        "# and answers many questions of it in one round trip. The documentation explorer",
        "# (the book icon) lists every field.",
        "{",
        "  rulesets {",
        "    id",
        "    version",
        "    queries",
        "  }",
        "}",
        "",
      ].join("\n"),
    };
  }

  // The ruleset's legal-actions example (a state and a player) as a tab.
  function tab(ruleset, example) {
    var field = lowerCamel(ruleset.id);
    var scalar = upperCamel(ruleset.id) + "State";
    return {
      query: [
        "# " + ruleset.title + ".",
        "# The state goes in once, as the " + scalar + " scalar (the variables below);",
        "# ask it more questions beside legalActions: the documentation explorer lists them.",
        "query " + upperCamel(ruleset.id) + "Example($state: " + scalar + "!, $player: String!) {",
        "  " + field + "(state: $state) {",
        "    legalActions(player: $player, limit: 5) {",
        "      count",
        "      truncated",
        "      actions {",
        "        __typename",
        "      }",
        "    }",
        "  }",
        "}",
        "",
      ].join("\n"),
      variables: JSON.stringify({ state: example.state, player: example.player }, null, 2),
    };
  }

  function examples(openapi, rulesets) {
    var tabs = [];
    rulesets.forEach(function (ruleset) {
      var path = openapi.paths["/v1/rulesets/" + ruleset.id + "/legal-actions"];
      var media = path && path.post.requestBody.content["application/json"];
      var body = media && media.example;
      if (body && body.state && body.player) tabs.push(tab(ruleset, body));
    });
    return tabs;
  }

  // GraphiQL 3's variables linter (codemirror-graphql) accepts only a string, number or
  // boolean for a custom scalar, so a state - a JSON object, which the service's state
  // scalars take - is underlined "Expected value of type ...". A custom scalar's input is
  // the server's to judge (the client schema has no parser for it), so that one message
  // is dropped for an object or array given to a custom scalar; every other check stays.
  var BUILT_IN = { String: 1, Int: 1, Float: 1, Boolean: 1, ID: 1 };

  function isCustomScalar(schema, name) {
    var type = schema && schema.getType(name);
    return Boolean(type) && !BUILT_IN[name] && typeof type.getFields !== "function" &&
      typeof type.getValues !== "function" && typeof type.parseValue === "function";
  }

  function ScalarLint() {
    var editors = GraphiQL.React.useEditorContext();
    var schema = GraphiQL.React.useSchemaContext().schema;
    var editor = editors.variableEditor;
    React.useEffect(function () {
      if (!editor || !schema || !editor.state.lint) return;
      var options = editor.state.lint.options;
      var lint = options.getAnnotations || editor.getHelper({ line: 0, ch: 0 }, "lint");
      if (!lint || lint.arbiterScalars) return;
      var filtered = function (text, passed, cm) {
        return lint(text, passed, cm).filter(function (found) {
          var match = /^Expected value of type "([A-Za-z0-9_]+)!?"\.$/.exec(found.message);
          if (!match || !isCustomScalar(schema, match[1])) return true;
          var first = cm.getRange(found.from, { line: found.from.line, ch: found.from.ch + 1 });
          return first !== "{" && first !== "[";
        });
      };
      filtered.arbiterScalars = true;
      options.getAnnotations = filtered;
      editor.performLint();
    }, [editor, schema]);
    return null;
  }

  function start(tabs) {
    var fetcher = GraphiQL.createFetcher({ url: "/graphql" });
    var root = ReactDOM.createRoot(document.getElementById("graphiql"));
    var all = tabs.concat([listing()]);
    root.render(h(GraphiQL, {
      fetcher: fetcher,
      defaultTabs: all,
      // The editors start from these (the first tab's): defaultTabs alone leaves the first
      // tab's variables editor empty in GraphiQL 3.
      query: all[0].query,
      variables: all[0].variables,
      defaultEditorToolsVisibility: true,
    }, h(GraphiQL.Footer, null, h(ScalarLint))));
  }

  Promise.all([fetch("/openapi.json").then(function (r) { return r.json(); }),
               fetch("/v1/rulesets").then(function (r) { return r.json(); })])
    .then(function (got) { start(examples(got[0], got[1].rulesets)); },
          function () { start([]); });
})();
