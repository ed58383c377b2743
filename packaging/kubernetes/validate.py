#!/usr/bin/python3
"""validate.py FILE... - check Kubernetes manifests offline, strictly.

Built-in kinds go through the Kubernetes Python client's models (Debian's
python3-kubernetes): every field must be one the model of its API version
declares (an unknown or misspelt key is an error, which kubectl's
client-side decoding would drop silently), of the declared type, and the
models' own checks run (required fields, enumerations).  The
ServiceMonitor, a custom resource, is checked against the fields of its
CRD (monitoring.coreos.com/v1) that the file uses, written down here from
the Prometheus Operator's API reference.  Exit 1 with one line per error.
"""
import sys

import yaml
from kubernetes import client

KINDS = {
    ("v1", "Namespace"): "V1Namespace",
    ("v1", "Service"): "V1Service",
    ("v1", "ConfigMap"): "V1ConfigMap",
    ("apps/v1", "DaemonSet"): "V1DaemonSet",
    ("networking.k8s.io/v1", "NetworkPolicy"): "V1NetworkPolicy",
}

# monitoring.coreos.com/v1 ServiceMonitor: field -> type; a dict is an
# object's fields, a one-element list a list of that.
RELABEL = {"sourceLabels": [str], "separator": str, "targetLabel": str, "regex": str,
           "modulus": int, "replacement": str,
           "action": ("replace", "keep", "drop", "hashmod", "labelmap", "labeldrop",
                      "labelkeep", "lowercase", "uppercase", "keepequal", "dropequal")}
ENDPOINT = {"port": str, "targetPort": (int, str), "path": str, "scheme": ("http", "https"),
            "interval": str, "scrapeTimeout": str, "honorLabels": bool,
            "honorTimestamps": bool, "relabelings": [RELABEL],
            "metricRelabelings": [RELABEL], "params": dict}
SELECTOR = {"matchLabels": dict, "matchExpressions": [dict]}
SERVICE_MONITOR = {
    "apiVersion": str, "kind": str,
    "metadata": {"name": str, "namespace": str, "labels": dict, "annotations": dict},
    "spec": {"selector": SELECTOR, "namespaceSelector": {"any": bool, "matchNames": [str]},
             "endpoints": [ENDPOINT], "jobLabel": str, "targetLabels": [str],
             "podTargetLabels": [str], "sampleLimit": int},
}


def check_model(value, type_name, path, errors):
    """value (from YAML) against the client's type name, recursively."""
    if value is None:
        return
    if type_name.startswith("list["):
        if not isinstance(value, list):
            errors.append(f"{path}: expected a list")
            return
        for i, v in enumerate(value):
            check_model(v, type_name[5:-1], f"{path}[{i}]", errors)
        return
    if type_name.startswith("dict("):
        if not isinstance(value, dict):
            errors.append(f"{path}: expected a map")
        return
    simple = {"str": str, "bool": bool, "int": int, "float": (int, float),
              "object": object, "datetime": str, "date": str}
    if type_name in simple:
        if type_name == "int" and isinstance(value, bool) or not isinstance(value, simple[type_name]):
            errors.append(f"{path}: expected {type_name}, got {type(value).__name__} {value!r}")
        return
    model = getattr(client, type_name, None)
    if model is None:
        errors.append(f"{path}: no model {type_name}")
        return
    if not isinstance(value, dict):
        errors.append(f"{path}: expected an object ({type_name})")
        return
    by_json = {j: a for a, j in model.attribute_map.items()}
    for key, v in value.items():
        if key not in by_json:
            errors.append(f"{path}.{key}: not a field of {type_name}")
            continue
        check_model(v, model.openapi_types[by_json[key]], f"{path}.{key}", errors)


def check_crd(value, schema, path, errors):
    if isinstance(schema, dict):
        if not isinstance(value, dict):
            errors.append(f"{path}: expected an object")
            return
        for key, v in value.items():
            if key not in schema:
                errors.append(f"{path}.{key}: not a field of the ServiceMonitor")
            else:
                check_crd(v, schema[key], f"{path}.{key}", errors)
    elif isinstance(schema, list):
        if not isinstance(value, list):
            errors.append(f"{path}: expected a list")
            return
        for i, v in enumerate(value):
            check_crd(v, schema[0], f"{path}[{i}]", errors)
    elif isinstance(schema, tuple) and all(isinstance(s, str) for s in schema):
        if value not in schema:
            errors.append(f"{path}: {value!r} is not one of {', '.join(schema)}")
    elif not isinstance(value, schema) or isinstance(value, bool) and schema is int:
        errors.append(f"{path}: {value!r} has the wrong type")


def check_doc(doc, where, errors):
    key = (doc.get("apiVersion"), doc.get("kind"))
    if key == ("monitoring.coreos.com/v1", "ServiceMonitor"):
        check_crd(doc, SERVICE_MONITOR, where, errors)
        if not doc.get("spec", {}).get("endpoints"):
            errors.append(f"{where}: a ServiceMonitor without endpoints")
        return
    if key not in KINDS:
        errors.append(f"{where}: unknown kind {key}")
        return
    before = len(errors)
    check_model(doc, KINDS[key], where, errors)
    if len(errors) == before:
        # the models' own checks: required fields and enumerations
        api = client.ApiClient()
        try:
            api._ApiClient__deserialize(doc, KINDS[key])
        except (ValueError, TypeError) as e:
            errors.append(f"{where}: {e}")


def main(paths):
    errors, n = [], 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for i, doc in enumerate(yaml.safe_load_all(f)):
                if doc is None:
                    continue
                n += 1
                check_doc(doc, f"{path}#{i}:{doc.get('kind')}", errors)
    for e in errors:
        print(e)
    print(f"{n} manifests, {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
