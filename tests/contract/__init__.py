"""The generic contract every ruleset must keep: its checks (generic.py, on the checking
functions of checks.py), the rulesets they run on (under_test.py) and the random positions
drawn for them (boards.py); test_contract.py runs them on the built-in rulesets and the
toy, test_breakage.py shows they can fail."""
