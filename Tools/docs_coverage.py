"""Lists the public symbols of LiveCollection's modules that have no
documentation comment, from the symbol graphs swift-docc-plugin extracts.

Usage: docs_coverage.py EXTRACTED_SYMBOLS_DIR MODULE...
Exits 1 when any symbol declared in Sources/ is undocumented. Symbols the
compiler synthesizes (Equatable's ==, Codable's init(from:), ...) are not
ours to document and are skipped.
"""
import glob
import json
import os
import sys


def undocumented(directory, module):
    found = set()
    for path in glob.glob(os.path.join(directory, "*", module, f"{module}*.symbols.json")):
        with open(path) as f:
            graph = json.load(f)
        for symbol in graph["symbols"]:
            if symbol["accessLevel"] not in ("public", "open"):
                continue
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                continue
            location = symbol.get("location")
            if not location or "/Sources/" not in location["uri"] or "/.build" in location["uri"]:
                continue
            # A comment of its own: one copied from the requirement it
            # implements comes from another file (or none).
            doc = symbol.get("docComment")
            if doc and doc.get("uri", location["uri"]) == location["uri"]:
                continue
            file = "Sources/" + location["uri"].split("/Sources/", 1)[1]
            line = location["position"]["line"] + 1
            name = ".".join(symbol["pathComponents"])
            found.add((file, line, symbol["kind"]["displayName"], name))
    return sorted(found)


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    directory, modules = sys.argv[1], sys.argv[2:]
    total = 0
    for module in modules:
        if not glob.glob(os.path.join(directory, "*", module)):
            print(f"{module}: no symbol graph under {directory}", file=sys.stderr)
            total += 1
            continue
        for file, line, kind, name in undocumented(directory, module):
            print(f"{file}:{line}: public {kind.lower()} {name} has no documentation comment", file=sys.stderr)
            total += 1
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
