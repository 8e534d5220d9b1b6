#!/usr/bin/env python3
"""Drives `llmc mcp` through the official MCP Python SDK (`pip install 'mcp>=1.0'`).

    python3 tests/mcp_client.py LLMC REPO [SERVER_ARG...] < plan.json > results.json

Starts `LLMC mcp SERVER_ARG...` in REPO as an agent would (stdio), initializes, then runs
the plan, a JSON list of steps, and prints one JSON list of results, one per step after
the first (`initialize`):

    {"op": "list_tools"}                        -> {"tools": [{name, title, description,
                                                    input_schema, output_schema}]}
    {"op": "call", "tool": T, "args": {...}}    -> {"is_error", "structured", "text", "ms"}
                                                   or {"exception": "..."}
    {"op": "parallel", "calls": [{tool, args}]} -> {"results": [...], "ms"}: the calls in
                                                   flight at once
    {"op": "write", "path": P, "text": S}       -> {}: writes REPO/P (an edit between calls)
    {"op": "run", "argv": [...]}                -> {"code"}: runs a command in REPO (another
                                                   process, e.g. `llmc index --rebuild`)
    {"op": "pages", "tool": T, "args": {...}}   -> {"pages": [...]}: calls, then follows
                                                   `omitted.next` until it is null

The SDK checks every structured result against the tool's output schema: a result that
does not conform raises, and shows here as an `exception`. Exit code 3 when the SDK is
not installed (with `{"import_error": ...}` on stdout).
"""

import asyncio
import json
import os
import subprocess
import sys
import time

try:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
except ImportError as e:  # pragma: no cover - reported to the Rust test
    print(json.dumps({"import_error": str(e)}))
    sys.exit(3)


async def call(session, tool, args):
    start = time.perf_counter()
    try:
        r = await session.call_tool(tool, args)
    except Exception as e:  # the SDK raises on protocol errors and invalid results
        return {"exception": f"{type(e).__name__}: {e}"}
    text = None
    if r.content:
        text = getattr(r.content[0], "text", None)
    return {
        "is_error": bool(r.is_error),
        "structured": r.structured_content,
        "text": text,
        "ms": (time.perf_counter() - start) * 1000.0,
    }


async def run(llmc, repo, server_args, plan):
    params = StdioServerParameters(command=llmc, args=["mcp", *server_args], cwd=repo)
    results = []
    with open(os.devnull, "w") as quiet:
        async with stdio_client(params, errlog=quiet) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                results.append(
                    {
                        "op": "initialize",
                        "server": init.server_info.name,
                        "version": init.server_info.version,
                        "protocol": str(init.protocol_version),
                        "instructions": init.instructions,
                        "tools": bool(init.capabilities.tools),
                    }
                )
                for step in plan:
                    op = step["op"]
                    if op == "list_tools":
                        listed = await session.list_tools()
                        results.append(
                            {
                                "tools": [
                                    {
                                        "name": t.name,
                                        "title": t.title,
                                        "description": t.description,
                                        "input_schema": t.input_schema,
                                        "output_schema": t.output_schema,
                                    }
                                    for t in listed.tools
                                ]
                            }
                        )
                    elif op == "call":
                        results.append(await call(session, step["tool"], step.get("args", {})))
                    elif op == "parallel":
                        start = time.perf_counter()
                        done = await asyncio.gather(
                            *(call(session, c["tool"], c.get("args", {})) for c in step["calls"])
                        )
                        results.append(
                            {"results": list(done), "ms": (time.perf_counter() - start) * 1000.0}
                        )
                    elif op == "write":
                        with open(os.path.join(repo, step["path"]), "w") as f:
                            f.write(step["text"])
                        results.append({})
                    elif op == "run":
                        done = await asyncio.to_thread(
                            subprocess.run, step["argv"], cwd=repo, capture_output=True
                        )
                        results.append({"code": done.returncode})
                    elif op == "pages":
                        pages = []
                        args = dict(step.get("args", {}))
                        while True:
                            r = await call(session, step["tool"], args)
                            pages.append(r)
                            nxt = (r.get("structured") or {}).get("omitted", {}).get("next")
                            if r.get("is_error") or "exception" in r or not nxt or len(pages) > 500:
                                break
                            args = nxt["arguments"]
                        results.append({"pages": pages})
                    else:
                        results.append({"exception": f"unknown op {op}"})
    return results


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    llmc, repo, server_args = sys.argv[1], sys.argv[2], sys.argv[3:]
    plan = json.load(sys.stdin)
    print(json.dumps(asyncio.run(run(llmc, repo, server_args, plan))))


if __name__ == "__main__":
    main()
