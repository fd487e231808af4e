"""`layerplay-farm batch`: one scene rendered once per row of data (each row's columns are the scene's params,
its `id` names the row), each row a task, each movie written here as it comes back."""
import csv
import json
import os

from .args import UsageError, extension, split_output
from .render import write_atomically
from .scheduler import Item


def read_rows(path):
    """The rows of a .csv (a header line, then one row a line) or .jsonl (one JSON object a line) file."""
    if not os.path.isfile(path):
        raise UsageError(f"cannot read the rows '{path}': no such file")
    lower = path.lower()
    with open(path, newline="", encoding="utf-8") as f:
        if lower.endswith(".csv"):
            rows = list(csv.DictReader(f))
        elif lower.endswith(".jsonl") or lower.endswith(".ndjson"):
            rows = []
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as e:
                    raise UsageError(f"{path}:{n}: not JSON: {e.msg}")
                if not isinstance(row, dict):
                    raise UsageError(f"{path}:{n}: a row is a JSON object of params")
                rows.append(row)
        else:
            raise UsageError(f"rows are .csv or .jsonl, not '{path}'")
    if not rows:
        raise UsageError(f"'{path}' has no rows")
    return rows


def param_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return json.dumps(value)
    return str(value)


def batch(options, scheduler):
    args, output, _ = split_output(options.layerplay_args)
    if output:
        raise UsageError("a batch's outputs are its -o template (before --), not a layerplay -o")
    rows = read_rows(options.rows)
    items, targets, seen = [], {}, set()
    for n, row in enumerate(rows, 1):
        if "id" not in row or str(row["id"]) == "":
            raise UsageError(f"row {n} of '{options.rows}' has no id")
        try:
            target = options.output.format(**{k: param_value(v) for k, v in row.items()})
        except (KeyError, IndexError, ValueError) as e:
            raise UsageError(f"the output template '{options.output}' names {e}, which row {n} does not have")
        if target in seen:
            raise UsageError(f"rows name the same output '{target}' twice (row {n})")
        seen.add(target)
        if options.resume and os.path.exists(target):
            continue  # made by an earlier run
        if os.path.lexists(target) and not options.overwrite:
            raise UsageError(f"'{target}' already exists; use -y to overwrite it (or --resume to keep it)")
        sets = []
        for name, value in row.items():
            if name != "id":
                sets += ["--set", f"{name}={param_value(value)}"]
        for s in options.set or []:
            sets = ["--set", s] + sets  # the command line's --set first: a row's own value wins
        item = Item(f"row {row['id']}", [options.scene] + args + sets, extension(target), frames=1)
        items.append(item)
        targets[item.key] = target

    def write(item, data):
        target = targets[item.key]
        os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
        write_atomically(target, data)

    scheduler.run(items, write, unit="rows")
