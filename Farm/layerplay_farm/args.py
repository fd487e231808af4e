"""The layerplay arguments a job is given, and the ones the farm sets itself for each task."""
import os

# Flags the farm sets for each task; a user's copy would contradict them.
OWN_OPTIONS = ("--frames", "--segments")
OWN_FLAGS = ("--audio-only", "--plan")


class UsageError(Exception):
    """A job that cannot be run as asked; printed as one `layerplay-farm: error:` line."""


def split_output(args):
    """(the arguments without -o/--output and -y, the output, whether -y was given)."""
    rest, output, overwrite = [], None, False
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-o", "--output"):
            if i + 1 >= len(args):
                raise UsageError(f"{a} needs a path")
            output = args[i + 1]
            i += 2
            continue
        if a.startswith("--output="):
            output = a.split("=", 1)[1]
        elif a == "-y":
            overwrite = True
        elif a in OWN_FLAGS or a.split("=", 1)[0] in OWN_OPTIONS:
            raise UsageError(f"{a.split('=', 1)[0]} is the farm's to set: leave it out of the layerplay arguments")
        else:
            rest.append(a)
        i += 1
    return rest, output, overwrite


def extension(path):
    ext = os.path.splitext(path)[1]
    if not ext:
        raise UsageError(f"'{path}' has no extension: it chooses the container")
    return ext


def input_fingerprint(args, cwd):
    """Size and modification time of every argument that names an existing file, so that a cached segment of a
    changed input is not reused by --resume."""
    marks = []
    for a in args:
        for candidate in [a] + a.split("=", 1)[1:]:
            path = candidate if os.path.isabs(candidate) else os.path.join(cwd, candidate)
            if candidate and os.path.isfile(path):
                st = os.stat(path)
                marks.append([candidate, st.st_size, st.st_mtime_ns])
    return marks
