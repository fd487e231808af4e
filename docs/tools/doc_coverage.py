#!/usr/bin/env python3
"""Lists the public symbols of a module that have no doc comment, from the symbol graphs `make docs` extracts
(.build/<triple>/extracted-symbols/<package>/<Module>/*.symbols.json); exits 1 when there is any.

DocC does not warn about undocumented API by itself, so this is what makes "every public type and member
documented" a check. Members with no source location (synthesized conformances such as `hash(into:)`, or
protocol extension defaults from the standard library) are not counted: they have nowhere to write a comment."""
import glob, json, os, sys

def undocumented(module, build=".build"):
    found = set()
    for path in glob.glob(os.path.join(build, "*", "extracted-symbols", "*", module, "*.symbols.json")):
        for symbol in json.load(open(path))["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open") or symbol.get("docComment"):
                continue
            if symbol["kind"]["identifier"] == "swift.extension" or "location" not in symbol:
                continue
            location = symbol["location"]
            source = location["uri"].split("/Sources/", 1)[-1]
            found.add((source, location["position"]["line"] + 1, ".".join(symbol["pathComponents"])))
    return sorted(found)

if __name__ == "__main__":
    missing = 0
    for module in sys.argv[1:]:
        rows = undocumented(module)
        for source, line, name in rows:
            print(f"Sources/{source}:{line}: warning: public '{name}' has no doc comment")
        missing += len(rows)
    if missing:
        print(f"{missing} public symbol(s) without a doc comment: write one above each line listed", file=sys.stderr)
    sys.exit(1 if missing else 0)
