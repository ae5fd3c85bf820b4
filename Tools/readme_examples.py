"""Writes the Swift examples of README.md and docs/*.md as a package of their
own that depends on LiveCollection by path, so each compiles as a user would
write it.

Usage: readme_examples.py REPOSITORY OUTPUT_DIRECTORY

Every ```swift block of those pages is preceded by a marker comment,
`<!-- example NAME run -->` or `<!-- example NAME build -->`. Blocks with the
same NAME continue each other, in order (README.md first, then docs/ by
name), as the main.swift of an executable target NAME: `run` ones run on
Linux, `build` ones are only compiled (they need a hosted database). A block
marked `<!-- example-file PATH -->` is a whole source file of the repository
(an app screen for UIKit or SwiftUI, type-checked by Tools/check-uikit):
it must equal that file, and is not compiled here. An example's target also holds
Tests/ReadmeExamples/NAME.swift when it exists: what the example leaves to
the app (a sign-in's ID token). Prints the names of the examples to run.
A block without a marker is an error.
"""
import json
import os
import re
import sys

MARKER = re.compile(r"<!-- example (\w+) (run|build) -->")
IMPORT = re.compile(r"^import (\w+)$", re.M)


FILE_MARKER = re.compile(r"<!-- example-file (\S+) -->")


def pages(repository):
    """README.md, then the Markdown pages of docs/, by name."""
    docs = os.path.join(repository, "docs")
    names = sorted(n for n in os.listdir(docs) if n.endswith(".md")) if os.path.isdir(docs) else []
    return ["README.md"] + [os.path.join("docs", n) for n in names]


def examples(readme, page="README.md", found=None, repository="."):
    found, lines, pending = ({} if found is None else found), readme.split("\n"), None
    i = 0
    while i < len(lines):
        marker = MARKER.fullmatch(lines[i].strip())
        file_marker = FILE_MARKER.fullmatch(lines[i].strip())
        if marker:
            pending = marker.groups()
        elif file_marker:
            pending = ("file", file_marker.group(1))
        elif lines[i].strip() == "```swift":
            if pending is None:
                raise SystemExit(f"{page}:{i + 1}: a Swift block without an `<!-- example NAME run|build -->` marker")
            end = lines.index("```", i + 1)
            if pending[0] == "file":
                path = os.path.join(repository, pending[1])
                with open(path) as f:
                    if f.read() != "\n".join(lines[i + 1:end]) + "\n":
                        raise SystemExit(f"{page}:{i + 1}: the block is not {pending[1]} as it is")
                pending, i = None, end
                i += 1
                continue
            name, mode = pending
            entry = found.setdefault(name, {"mode": mode, "code": [], "line": i + 1})
            if entry["mode"] != mode:
                raise SystemExit(f"{page}:{i + 1}: example {name} is marked both run and build")
            entry["code"].append(f"// {page}:{i + 2}\n" + "\n".join(lines[i + 1:end]))
            pending, i = None, end
        i += 1
    return found


EXCERPT_MARKER = re.compile(r"<!-- example-excerpt (\S+) -->")


def check_excerpts(repository):
    """Each Swift block of a DocC article is an excerpt of the file it names."""
    sources = os.path.join(repository, "Sources")
    for module in sorted(os.listdir(sources)):
        catalog = os.path.join(sources, module, module + ".docc")
        if not os.path.isdir(catalog):
            continue
        for name in sorted(os.listdir(catalog)):
            if not name.endswith(".md") or name == module + ".md":
                continue
            page = os.path.relpath(os.path.join(catalog, name), repository)
            lines, pending = open(os.path.join(catalog, name)).read().split("\n"), None
            i = 0
            while i < len(lines):
                marker = EXCERPT_MARKER.fullmatch(lines[i].strip())
                if marker:
                    pending = marker.group(1)
                elif lines[i].strip() == "```swift":
                    if pending is None:
                        raise SystemExit(f"{page}:{i + 1}: a Swift block without an `<!-- example-excerpt PATH -->` marker")
                    end = lines.index("```", i + 1)
                    with open(os.path.join(repository, pending)) as f:
                        source = [l.strip() for l in f.read().split("\n") if l.strip()]
                    at = 0
                    for line in (l.strip() for l in lines[i + 1:end] if l.strip()):
                        if line not in source[at:]:
                            raise SystemExit(f"{page}:{i + 1}: \"{line}\" is not in {pending} (in this order)")
                        at = source.index(line, at) + 1
                    pending, i = None, end
                i += 1


def main():
    repository, output = sys.argv[1], sys.argv[2]
    check_excerpts(repository)
    found = {}
    for page in pages(repository):
        with open(os.path.join(repository, page)) as f:
            examples(f.read(), page, found, repository)
    products = {"LiveModel", "LiveCollection", "LiveSections", "LiveFirebase", "LiveServer", "LiveREPL"}
    targets = []
    for name, entry in sorted(found.items()):
        source = os.path.join(output, "Sources", name)
        os.makedirs(source, exist_ok=True)
        code = "\n\n".join(entry["code"]) + "\n"
        with open(os.path.join(source, "main.swift"), "w") as f:
            f.write(code)
        prelude = os.path.join(repository, "Tests", "ReadmeExamples", name + ".swift")
        if os.path.exists(prelude):
            with open(prelude) as f, open(os.path.join(source, "App.swift"), "w") as out:
                out.write(f.read())
        used = sorted(set(IMPORT.findall(code)) & products)
        dependencies = ", ".join(f'.product(name: "{m}", package: "LiveCollection")' for m in used)
        targets.append(f'        .executableTarget(name: "{name}", dependencies: [{dependencies}]),')
    package = f"""// swift-tools-version: 6.2
// The Swift examples of LiveCollection's README.md, written by Tools/readme_examples.py.
import PackageDescription

let package = Package(
    name: "ReadmeExamples",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(name: "LiveCollection", path: {json.dumps(repository, ensure_ascii=False)})],
    targets: [
{chr(10).join(targets)}
    ],
    swiftLanguageModes: [.v6]
)
"""
    with open(os.path.join(output, "Package.swift"), "w") as f:
        f.write(package)
    print(" ".join(name for name, entry in sorted(found.items()) if entry["mode"] == "run"))


if __name__ == "__main__":
    main()
