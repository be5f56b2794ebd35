"""Checks the Python client (clients/python/phasedesk_client.py) against a real PhaseDesk service.

Usage: python3 check_client.py BASE_URL API_KEY SLEEP_TASK_CONFIG_JSON

1. The OpenAPI document served at BASE_URL/openapi.json: every operation has a client method (ENDPOINTS) and vice
   versa; each method's arguments are the operation's path parameters plus its query parameters (or the fields of
   its JSON body), required exactly where the document requires them; every TypedDict in SCHEMAS has exactly the
   fields of its schema, with the same optionality; every component schema is covered. The module parses as
   Python 3.9.
2. A session: key info, databases, phases, a point calculation waited for, result.json through a signed URL,
   typed errors, waiting stopped by an event; with a fourth argument, that aging task_config run and its end state
   reported.

Prints one JSON line with what it saw ({"ok": true, ...}) and exits 0, or prints the problems and exits 1.
test/clients/python-client.test.ts runs it.
"""

import ast
import inspect
import json
import os
import re
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
CLIENT_DIR = os.path.join(HERE, "..", "..", "..", "clients", "python")
sys.path.insert(0, CLIENT_DIR)

import phasedesk_client as pdc  # noqa: E402
from phasedesk_client import PhaseDeskClient, PhaseDeskError, file_name  # noqa: E402

HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options")
# Arguments of a method that are the client's own, not the operation's.
CLIENT_ONLY_ARGS = {"self"}


def operations(doc):
    return sorted(f"{m.upper()} {p}" for p, ops in doc["paths"].items() for m in ops if m in HTTP_METHODS)


def object_schema(doc, s):
    for _ in range(10):
        if s is None:
            return None
        if "$ref" in s:
            s = doc["components"]["schemas"][s["$ref"].split("/")[-1]]
            continue
        alts = s.get("anyOf") or s.get("oneOf")
        if alts:
            s = next((a for a in alts if a.get("type") != "null"), None)
            continue
        t = s.get("type")
        if t == "array" or (isinstance(t, list) and "array" in t):
            s = s.get("items")
            continue
        return s
    return None


def schema_fields(doc, ref):
    """{name: required} of a component schema or of an object nested in one ('KeyInfo.user'); None if absent."""
    name, *path = ref.split(".")
    s = object_schema(doc, doc["components"]["schemas"].get(name))
    for p in path:
        s = object_schema(doc, (s or {}).get("properties", {}).get(p))
    if not s or "properties" not in s:
        return None
    req = set(s.get("required", []))
    return {n: n in req for n in s["properties"]}


def compare(where, client, document, extensions=frozenset()):
    """client and document: {name: required}. Returns the problems as sentences."""
    problems = []
    for name, required in client.items():
        if name not in document:
            if name not in extensions:
                problems.append(f"{where}: client field '{name}' is not in the document")
            continue
        if name in extensions:
            if required:
                problems.append(f"{where}: extension field '{name}' must be optional in the client")
            continue
        if document[name] != required:
            problems.append(f"{where}: '{name}' is {'required' if document[name] else 'optional'} in the document "
                            f"but {'required' if required else 'optional'} in the client")
    for name in document:
        if name not in client:
            problems.append(f"{where}: document field '{name}' is missing from the client")
    return problems


def check_document(doc):
    problems = []
    covered = set()
    client_ops = sorted(f"{m} {p}" for m, p in pdc.ENDPOINTS.values())
    if client_ops != operations(doc):
        problems.append(f"operations differ: client only {sorted(set(client_ops) - set(operations(doc)))}, "
                        f"document only {sorted(set(operations(doc)) - set(client_ops))}")
    for name, (method, path) in pdc.ENDPOINTS.items():
        fn = getattr(PhaseDeskClient, name, None)
        if not callable(fn):
            problems.append(f"ENDPOINTS names {name}, which is not a method")
            continue
        op = doc["paths"].get(path, {}).get(method.lower())
        if op is None:
            continue
        sig = {p.name: p.default is inspect.Parameter.empty
               for p in inspect.signature(fn).parameters.values() if p.name not in CLIENT_ONLY_ARGS}
        path_params = re.findall(r"\{(\w+)\}", path)
        for p in path_params:
            if sig.pop(p, None) is not True:
                problems.append(f"{name}: path parameter '{p}' is not a required argument")
        where = f"{name} ({method} {path})"
        body = op.get("requestBody")
        if body:
            ref = body["content"]["application/json"]["schema"]["$ref"].split("/")[-1]
            covered.add(ref)
            problems += compare(f"{where} body {ref}", sig, schema_fields(doc, ref) or {})
        else:
            params = {p["name"]: bool(p.get("required")) for p in op.get("parameters", []) if p["in"] == "query"}
            problems += compare(f"{where} query", sig, params, pdc.EXTENSIONS.get(f"{method} {path}", set()))
    for td, ref in pdc.SCHEMAS.items():
        fields = schema_fields(doc, ref)
        if fields is None:
            problems.append(f"{td.__name__}: {ref} is not an object schema of the document")
            continue
        covered.add(ref)
        client = {k: True for k in td.__required_keys__}
        client.update({k: False for k in td.__optional_keys__})
        extensions = pdc.EXTENSIONS.get(ref, set())
        problems += compare(f"{td.__name__} ({ref})", client, fields, extensions)
    for name in doc["components"]["schemas"]:
        if name not in covered:
            problems.append(f"component schema {name} has no client type")
    # The check catches what it should: a misspelled field, a missing one, a wrong optionality.
    assert compare("x", {"id": True, "statuss": True}, {"id": True, "status": True}) == [
        "x: client field 'statuss' is not in the document", "x: document field 'status' is missing from the client"]
    assert compare("x", {"id": False}, {"id": True}) == ["x: 'id' is required in the document but optional in the client"]
    return problems


def expect_error(fn, status, message=None):
    try:
        fn()
    except PhaseDeskError as e:
        assert e.status == status, (e.status, e.message)
        if message is not None:
            assert e.message == message, e.message
        return e
    raise AssertionError(f"expected PhaseDeskError {status}")


def run_session(base_url, api_key, sleep_config):
    pd = PhaseDeskClient(api_key, base_url)
    key = pd.key_info()
    assert key["user"]["username"] == "a", key
    alfe = next(d for d in pd.list_databases(search="ALFE")["items"] if d["code"] == "ALFE")
    assert {"AL", "FE"} <= set(pd.get_database(alfe["id"])["element_list"])
    assert "ALFE" in [d["code"] for d in pd.list_user_databases()["items"]]
    assert "ALFE" in [d["code"] for d in pd.list_databases_by_task(task_type="point_calculation")["items"]]
    assert pd.user_database_status(user_id=key["user"]["id"], topdb_id=alfe["id"])["status"] == "active"
    phases = pd.query_phases(alfe["id"], element_list=["AL", "FE"])["phase_list"]
    assert {"LIQUID", "FCC_A1", "BCC_A2"} <= set(phases), phases

    config = {"task_type": "point_calculation", "tdb_code": "ALFE", "condition": {
        "components": ["AL", "FE"], "temperature": 1200, "pressure": 101325, "compositions": {"AL": 0.25, "FE": 0.75}}}
    created = pd.create_task("python point", config, no_cache=True)
    assert created["status"] == "pending" and created["task_type"] == "point_calculation", created
    seen = []
    done = pd.wait_for_task(created["id"], interval=0.02, timeout=120, on_update=lambda t: seen.append(t["status"]))
    assert done["status"] == "completed", done
    assert seen[-1] == "completed"
    assert pd.list_tasks(sort_order="desc", items_per_page=5)["data"][0]["id"] == created["id"]

    files = pd.result_files(created["id"])
    assert files["total_count"] == len(files["files"])
    result_url = next(u for u in files["files"] if file_name(u) == "result.json")
    point = pd.download_json(result_url)["point"]
    assert point["T"] == 1200, point["T"]
    assert point["converged"] is True
    assert abs(point["x"]["AL"] - 0.25) < 1e-9, point["x"]
    assert abs(sum(p["amount"] for p in point["phases"]) - 1) < 1e-6
    csv = pd.download_text(next(u for u in files["files"] if file_name(u) == "result.csv"))
    assert "T [K]" in csv.splitlines()[0], csv.splitlines()[0]
    # one call for a named file; a name the list lacks names the files there are
    assert pd.task_file(created["id"], "result.csv").decode("utf-8") == csv
    assert len(pd.task_file(created["id"], "point.svg", kind="preview")) > 0
    try:
        pd.task_file(created["id"], "nope.csv")
        raise AssertionError("task_file of a missing name did not raise")
    except PhaseDeskError as e:
        assert e.status == 404 and "result.csv" in e.message, e.message
    assert isinstance(done["duration_ms"], int) and done["duration_ms"] >= 0, done
    # The signed URL is the credential: the key never travels with a download.
    sent = []
    real_urlopen = pdc.urllib.request.urlopen

    def spy(req, *args, **kwargs):
        sent.append((req.full_url, req.get_header("Authorization")))
        return real_urlopen(req, *args, **kwargs)

    pdc.urllib.request.urlopen = spy
    try:
        pd.download(result_url)
        pd.key_info()
    finally:
        pdc.urllib.request.urlopen = real_urlopen
    assert sent[0] == (result_url, None), sent[0]
    assert sent[1][1] == f"Bearer {api_key}", sent[1]
    previews = pd.preview_files(created["id"])
    png = pd.download(next(u for u in previews["files"] if file_name(u) == "point.png"))
    assert png[:4] == b"\x89PNG"
    assert pd.vtk_files(created["id"])["task_id"] == files["task_id"]

    # Typed errors carry the HTTP status and the service's message.
    expect_error(lambda: pd.get_task(999999), 404, "Task not found")
    expect_error(lambda: PhaseDeskClient("tk_" + "x" * 32, base_url).key_info(), 401, "invalid API key")
    bad = dict(config, condition=dict(config["condition"], pressure=-1))
    e = expect_error(lambda: pd.create_task("bad", bad), 400, "task_config.condition.pressure: must be greater than 0")
    assert e.body == {"error": e.message}, e.body
    assert "items_per_page" in expect_error(lambda: pd.list_tasks(items_per_page=0), 400).message
    expect_error(lambda: pd.cancel_task(created["id"]), 409, "Task cannot be stopped in current status: completed")
    tampered = re.sub(r"signature=([0-9a-f])", lambda m: "signature=" + ("1" if m.group(1) == "0" else "0"), result_url)
    expect_error(lambda: pd.download(tampered), 403)

    # A batch: rows in input order, each with its status, inputs and outputs; a refused one names the field.
    product = {"compositions": [{"AL": 0.25, "FE": 0.75}, {"AL": 0.4, "FE": 0.6}], "temperatures": [1200, 1400]}
    rows = pd.batch("ALFE", {"components": ["AL", "FE"], "pressure": 101325, "product": product},
                    title="python batch", interval=0.02, timeout=120)
    assert [r["row"] for r in rows] == [1, 2, 3, 4], rows
    assert all(r["status"] == "ok" and r["reason"] == "" for r in rows), rows
    assert sorted((r["input"]["T"], round(r["input"]["x"]["AL"], 9)) for r in rows) == [
        (1200, 0.25), (1200, 0.4), (1400, 0.25), (1400, 0.4)], rows
    same = next(r for r in rows if r["input"]["T"] == 1200 and abs(r["input"]["x"]["AL"] - 0.25) < 1e-12)
    # the same alloy as the point calculation above: the same phases and Gibbs energy
    assert [k[3:-1] for k in same["values"] if k.startswith("NP(")] == [p["name"] for p in point["phases"]], same
    assert abs(same["values"]["G"] - point["GM"]) < 1e-6 * abs(point["GM"]), (same["values"]["G"], point["GM"])
    e = expect_error(lambda: pd.batch("ALFE", {"components": ["AL", "FE"], "pressure": 101325}), 400)
    assert "rows" in e.message, e.message
    try:
        import pandas  # noqa: F401 - optional
    except ImportError:
        pass
    else:
        frame = pd.batch("ALFE", {"components": ["AL", "FE"], "pressure": 101325, "product": product},
                         interval=0.02, timeout=120, dataframe=True)
        assert len(frame) == 4, frame

    # Waiting stops when the event is set; cancel and delete end the task.
    sleeper = pd.create_task("sleeper", sleep_config)
    stop = threading.Event()
    statuses = []

    def on_update(t):
        statuses.append(t["status"])
        if t["status"] == "running":
            stop.set()

    try:
        pd.wait_for_task(sleeper["id"], interval=0.02, stop=stop, on_update=on_update)
        raise AssertionError("wait_for_task did not stop")
    except InterruptedError:
        pass
    assert statuses[-1] == "running", statuses
    try:
        pd.wait_for_task(sleeper["id"], interval=0.02, timeout=0.1)
        raise AssertionError("wait_for_task did not time out")
    except TimeoutError:
        pass
    assert pd.cancel_task(sleeper["id"])["status"] == "aborted"
    assert pd.wait_for_task(sleeper["id"])["status"] == "aborted"
    pd.delete_task(sleeper["id"])
    expect_error(lambda: pd.get_task(sleeper["id"]), 404, "Task not found")
    return {"task_id": created["id"], "T": point["T"], "phases": [p["name"] for p in point["phases"]]}


def run_aging(base_url, api_key, aging_config):
    """An ageing treatment submitted, waited for and its end state read from result.json."""
    pd = PhaseDeskClient(api_key, base_url)
    created = pd.create_task("python aging", aging_config)
    done = pd.wait_for_task(created["id"], interval=0.1, timeout=300)
    assert done["status"] == "completed", done
    doc = json.loads(pd.task_file(created["id"], "result.json").decode("utf-8"))
    assert doc["mass_balance_error"] < 1e-6, doc["mass_balance_error"]
    return {p["phase"]: {"N": p["number_density"][-1], "r": p["mean_radius"][-1], "f": p["volume_fraction"][-1]}
            for p in doc["precipitates"]}


def main():
    base_url, api_key, sleep_config = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    aging_config = json.loads(sys.argv[4]) if len(sys.argv) > 4 else None
    with open(os.path.join(CLIENT_DIR, "phasedesk_client.py"), encoding="utf-8") as f:
        ast.parse(f.read(), feature_version=(3, 9))  # no syntax newer than the supported Python
    doc = PhaseDeskClient(api_key, base_url).openapi_document()
    problems = check_document(doc)
    if problems:
        print(json.dumps({"ok": False, "problems": problems}))
        sys.exit(1)
    seen = run_session(base_url, api_key, sleep_config)
    if aging_config is not None:
        seen["aging"] = run_aging(base_url, api_key, aging_config)
    print(json.dumps({"ok": True, "operations": len(pdc.ENDPOINTS), "schemas": len(pdc.SCHEMAS), **seen}))


if __name__ == "__main__":
    main()
