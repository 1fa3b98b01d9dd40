#!/usr/bin/env python3
"""maasrun.py: runs a MAAS testing script the way MAAS's runner does.

    maasrun.py --check SCRIPT
    maasrun.py [--dir DIR] [--kiln FILE] [--runtime S] [--param NAME=VALUE]...
        [--serial] SCRIPT DISK...

What MAAS does, read from canonical/maas and written again here, small:
the region reads the "MAAS 1.0 script metadata" block as its script form
does (src/maasserver/forms/script.py: the lines between the Start and End
markers, each cut after its first '#', as YAML; only the form's field
names count, so the type is script_type) and makes one instance per disk
for a storage parameter (src/maasserver/forms/parameters.py); the runner
(maas_run_remote_scripts.py) lays out scripts/, scripts/downloads/NAME/
and an output folder out/NAME.ID for every instance before it starts any,
formats each parameter's argument_format (a disk with no model or serial,
a loop device, by its id_path), starts the instances of a parallel:
instance script all at once at nice 19 with OUTPUT_*_PATH, RESULT_PATH,
DOWNLOAD_PATH, RUNTIME (the timeout in seconds, a float) and HAS_STARTED,
kills one past RUNTIME + 5 minutes (TIMEDOUT), and the region reads
RESULT_PATH's YAML (src/maasserver/models/scriptresult.py): its status,
when valid, over the one the exit code gives. --kiln puts kiln in the
download folder, as a packages: url: entry would. --serial starts each
instance when the one before has ended, as if the runner were slow to
start the rest.

--check prints the metadata as MAAS takes it, as JSON: exit 0 when it is a
destructive storage testing script, else 1 with why. A run prints JSON:
"node" (OK, or FAILED when an instance exited non-zero, as the runner
signals), and per instance its disk, argv, exit status, status, the YAML,
and yaml_error when MAAS would have refused it. Exit 0, or 2 on bad use.
"""
import json
import os
import re
import selectors
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import yaml

DELIM = re.compile(r"\s*#\s*-+\s*(Start|End) MAAS (?P<version>\d+\.\d+) "
           r"script metadata\s+-+", re.I)
FIELDS = {"name", "title", "description", "tags", "script_type",
      "hardware_type", "parallel", "packages", "timeout", "destructive",
      "script", "for_hardware", "may_reboot", "recommission",
      "apply_configured_networking"}
TYPES = {"test": "testing", "testing": "testing", "commission": "commissioning",
     "commissioning": "commissioning", "release": "release",
     "deployment": "deployment"}
HW = {"node": "node", "machine": "node", "controller": "node", "other": "node",
      "generic": "node", "cpu": "cpu", "processor": "cpu", "memory": "memory",
      "ram": "memory", "storage": "storage", "disk": "storage",
      "ssd": "storage", "network": "network", "net": "network",
      "interface": "network", "gpu": "gpu", "graphics": "gpu"}
PARALLEL = {"disabled": "disabled", "none": "disabled", "instance": "instance",
        "name": "instance", "any": "any", "enabled": "any"}


def read_metadata(text):
    """The embedded YAML as the script form reads it."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("#!/"):
        raise ValueError("must start with a shebang")
    found, content = None, ""
    for line in lines[1:]:
        m = DELIM.search(line)
        if m is not None:
            if found is None and m.group("version") == "1.0":
                found = "1.0"
                continue
            if found == m.group("version"):
                break
        elif found is not None and line.strip() != "":
            if "#" not in line:
                raise ValueError('missing "#" on a YAML line')
            content += "%s\n" % line.split("#", 1)[1]
    doc = yaml.safe_load(content)
    if not isinstance(doc, dict):
        raise ValueError("no metadata block")
    return doc


def seconds(timeout):
    """The timeout as Django's DurationField takes str(value)."""
    if isinstance(timeout, int):
        return timeout
    m = re.fullmatch(r"(?:(\d+) )?(?:(\d+):)?(\d+):(\d+)", str(timeout))
    if not m:
        raise ValueError("timeout %r is not a duration" % timeout)
    d, h, mi, s = (int(x or 0) for x in m.groups())
    return ((d * 24 + h) * 60 + mi) * 60 + s


def check(doc):
    """Why MAAS would not take it as a destructive storage test, or []."""
    bad = []
    st = doc.get("script_type")
    if "type" in doc and st is None:
        bad.append("type is not a field of MAAS's form: it says script_type")
    if TYPES.get(str(st).lower()) != "testing":
        bad.append("script_type %r is not testing" % st)
    if doc.get("destructive") is not True:
        bad.append("destructive is %r, not true" % doc.get("destructive"))
    if HW.get(str(doc.get("hardware_type")).lower()) is None:
        bad.append("hardware_type %r unknown" % doc.get("hardware_type"))
    if PARALLEL.get(str(doc.get("parallel")).lower()) is None:
        bad.append("parallel %r unknown" % doc.get("parallel"))
    try:
        if seconds(doc.get("timeout", 0)) <= 0:
            bad.append("no timeout")
    except ValueError as e:
        bad.append(str(e))
    params = doc.get("parameters") or {}
    storage = [p for p in params.values() if p.get("type") == "storage"]
    if len(storage) != 1:
        bad.append("not one storage parameter")
    for name, p in params.items():
        f = p.get("argument_format")
        if p.get("type") == "storage" and f is not None and not any(
                k in f for k in ("{input}", "{name}", "{path}",
                         "{model}", "{serial}")):
            bad.append("%s: argument_format names no disk" % name)
        if "default" in p and not isinstance(p["default"], str):
            bad.append("%s: default must be a string" % name)
    for name, r in (doc.get("results") or {}).items():
        if not isinstance(r, dict) or not isinstance(r.get("title"), str):
            bad.append("result %s has no title" % name)
    for k in doc:
        if k not in FIELDS | {"results", "parameters"}:
            bad.append("%s is not read by MAAS" % k)
    return bad


def arguments(path, params, disk, given):
    """The argv the runner's parse_parameters makes for one instance."""
    argv = [path]
    for key, p in params.items():
        if p.get("type") == "storage":
            value = {"name": os.path.basename(disk), "id_path": disk,
                 "model": "", "serial": ""}
            value["path"] = value["input"] = value["id_path"]
            fmt = p.get("argument_format", "--storage={path}")
            argv += fmt.format(**value).split()
        else:
            value = given.get(key, p.get("default", ""))
            if not value:
                continue
            fmt = p.get("argument_format", "--%s={input}" % key)
            argv += fmt.format(input=value).split()
    return argv


def read_result(text):
    """RESULT_PATH's YAML as the region's read_results() takes it."""
    doc = yaml.safe_load(text)
    if doc is None:
        return {}
    if not isinstance(doc, dict):
        raise ValueError("YAML must be a dictionary")
    if doc.get("status") not in ("passed", "failed", "degraded",
                     "timedout", "skipped", None):
        raise ValueError("bad status %r" % doc.get("status"))
    results = doc.get("results")
    if results is not None:
        if not isinstance(results, dict):
            raise ValueError("results must be a dictionary")
        for k, v in results.items():
            if not isinstance(k, str):
                raise ValueError("result key %r" % k)
            for i in v if isinstance(v, list) else [v]:
                if type(i) not in (str, float, int, bool):
                    raise ValueError("result %s: %r" % (k, i))
    return doc


def capture(proc, inst, timeout):
    """Output to NAME.out, NAME.err and NAME (both), as the runner keeps."""
    files = {proc.stdout: open(inst["stdout"], "wb"),
         proc.stderr: open(inst["stderr"], "wb")}
    combined = open(inst["combined"], "wb")
    end = time.monotonic() + timeout + 300 if timeout else None
    with selectors.DefaultSelector() as sel:
        for f in files:
            sel.register(f, selectors.EVENT_READ)
        while sel.get_map():
            if end is not None and time.monotonic() > end:
                proc.kill()
                inst["timedout"] = True
                break
            for key, _ in sel.select(0.1):
                data = key.fileobj.read1(65536)
                if not data:
                    sel.unregister(key.fileobj)
                    continue
                files[key.fileobj].write(data)
                combined.write(data)
    for f in list(files.values()) + [combined]:
        f.close()
    inst["exit_status"] = 124 if inst.get("timedout") else proc.wait()


def run(args):
    text = open(args["script"]).read()
    doc = read_metadata(text)
    name = doc["name"]
    runtime = float(args["runtime"] if args["runtime"] is not None
            else seconds(doc.get("timeout", 0)))
    top = args["dir"] or tempfile.mkdtemp(prefix="maasrun-")
    scripts = os.path.join(top, "scripts")
    path = os.path.join(scripts, "testing", name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    shutil.copy(args["script"], path)
    os.chmod(path, 0o755)
    download = os.path.join(scripts, "downloads", name)
    os.makedirs(download, exist_ok=True)
    if args["kiln"]:
        shutil.copy(args["kiln"], os.path.join(download, "kiln"))
    fd, resources = tempfile.mkstemp(dir=top)
    os.close(fd)
    insts = []
    for i, disk in enumerate(args["disks"]):
        out = os.path.join(top, "out", "%s.%d" % (name, 101 + i))
        os.makedirs(out, exist_ok=True)
        insts.append({"disk": disk, "out": out,
                  "combined": os.path.join(out, name),
                  "stdout": os.path.join(out, name + ".out"),
                  "stderr": os.path.join(out, name + ".err"),
                  "result": os.path.join(out, name + ".yaml")})
    params = doc.get("parameters") or {}

    def one(inst):
        env = dict(os.environ)
        env.update({
            "MAAS_BASE_URL": "http://maas.invalid:5240/MAAS",
            "MAAS_RESOURCES_FILE": resources,
            "MAAS_MACHINE_EXTRA_FILE": "/machine-extra.json",
            "MAAS_STORAGE_CONFIG_FILE": "/storage-config.json",
            "OUTPUT_COMBINED_PATH": inst["combined"],
            "OUTPUT_STDOUT_PATH": inst["stdout"],
            "OUTPUT_STDERR_PATH": inst["stderr"],
            "RESULT_PATH": inst["result"],
            "DOWNLOAD_PATH": download,
            "RUNTIME": str(runtime),
            "HAS_STARTED": "False",
        })
        inst["argv"] = arguments(path, params, inst["disk"],
                     args["params"])
        t0 = time.monotonic()
        # The runner sits at nice -20 and adds 40: its scripts run at 19.
        proc = subprocess.Popen(inst["argv"], stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, env=env,
                    stdin=subprocess.DEVNULL,
                    preexec_fn=lambda: os.nice(40))
        capture(proc, inst, runtime)
        inst["runtime"] = time.monotonic() - t0

    mode = PARALLEL.get(str(doc.get("parallel")).lower())
    if mode == "disabled" or args["serial"]:
        for inst in insts:
            one(inst)
    else:
        threads = [threading.Thread(target=one, args=(i,)) for i in insts]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    report = []
    for inst in insts:
        status = ("timedout" if inst.get("timedout") else
              "passed" if inst["exit_status"] == 0 else "failed")
        r = {"disk": inst["disk"], "argv": inst["argv"][1:],
             "exit_status": inst["exit_status"], "out": inst["out"],
             "yaml": None}
        if os.path.exists(inst["result"]):
            try:
                r["yaml"] = read_result(open(inst["result"]).read())
                status = r["yaml"].get("status") or status
            except (ValueError, yaml.YAMLError) as e:
                r["yaml_error"] = str(e)
        r["status"] = status
        report.append(r)
    failed = sum(1 for i in insts if i["exit_status"] != 0)
    print(json.dumps({"node": "FAILED" if failed else "OK",
              "runtime": str(runtime), "dir": top,
              "instances": report}, indent=1, default=str))


def main(argv):
    args = {"dir": None, "kiln": None, "runtime": None, "params": {},
        "disks": [], "serial": False}
    i, check_only = 0, False
    while i < len(argv):
        a = argv[i]
        if a == "--check":
            check_only = True
        elif a == "--serial":
            args["serial"] = True
        elif a in ("--dir", "--kiln", "--runtime", "--param") and \
                i + 1 < len(argv):
            i += 1
            if a == "--param":
                k, _, v = argv[i].partition("=")
                args["params"][k] = v
            else:
                args[a[2:]] = argv[i]
        elif a.startswith("-"):
            sys.exit("maasrun.py: unknown option %s" % a)
        elif "script" not in args:
            args["script"] = a
        else:
            args["disks"].append(a)
        i += 1
    if "script" not in args or (not check_only and not args["disks"]):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    if check_only:
        try:
            doc = read_metadata(open(args["script"]).read())
        except (ValueError, yaml.YAMLError) as e:
            print("maasrun.py: %s" % e)
            return 1
        bad = check(doc)
        doc["timeout_seconds"] = seconds(doc.get("timeout", 0)) \
            if not any("timeout" in b for b in bad) else None
        print(json.dumps(doc, indent=1, default=str))
        for b in bad:
            print("maasrun.py: %s" % b, file=sys.stderr)
        return 1 if bad else 0
    run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
