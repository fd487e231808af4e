#!/usr/bin/env python3
"""Every relative link and image in README.md, Benchmarks/*.md and docs/**/*.md must name a file of the repository.

Run by `make test` (the contracts moved into docs/spec/ so that a clone from anywhere has them; a link that points
outside the repository, or to a file renamed since, fails the build). Prints one line per broken link and exits 1.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
# [text](target) and ![alt](target); a target may carry a #fragment or a "title".
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_FENCE = re.compile(r"^\s*```")


def links(path):
    in_code = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if CODE_FENCE.match(line):
            in_code = not in_code
            continue
        if in_code:
            continue
        # Inline code spans are examples, not links.
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            yield number, target


def broken(path):
    for number, target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a URL (https:, mailto:, doc:) or an anchor in the same page
        file_part = target.split("#", 1)[0]
        resolved = (path.parent / file_part).resolve()
        if not resolved.exists():
            yield f"{path.relative_to(ROOT)}:{number}: link to {target!r}: no such file"
        elif ROOT not in resolved.parents and resolved != ROOT:
            yield f"{path.relative_to(ROOT)}:{number}: link to {target!r} leaves the repository"


def main():
    pages = [ROOT / "README.md", *sorted((ROOT / "Benchmarks").glob("*.md")), *sorted((ROOT / "docs").rglob("*.md"))]
    failures = [line for page in pages if page.exists() for line in broken(page)]
    for line in failures:
        print(line)
    print(f"links: {len(pages)} pages checked, {len(failures)} broken")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
