"""The client covers the API a running oracle serves: every operation and every schema of its
/openapi.json, unchanged since the client was generated (else: `npm run python:generate`)."""

from __future__ import annotations

import hashlib
import inspect
import json

import httpx

import songmint

HINT = "the client is stale: run `npm run python:generate` and commit clients/python/src/songmint/songmint.types.py"
METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


def fingerprint(value: object) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def test_every_operation_and_schema_of_the_served_document(base_url: str) -> None:
    document = httpx.get(f"{base_url}/openapi.json").json()
    served_operations = {
        operation["operationId"]: fingerprint({"method": method.upper(), "path": path, "operation": operation})
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    }
    missing = sorted(set(served_operations) - set(songmint.types.OPERATION_FINGERPRINTS))
    assert missing == [], f"operations the client lacks: {missing}; {HINT}"
    changed = sorted(op for op, print_ in served_operations.items() if songmint.types.OPERATION_FINGERPRINTS[op] != print_)
    assert changed == [], f"operations changed since generation: {changed}; {HINT}"
    assert sorted(set(songmint.types.OPERATION_FINGERPRINTS) - set(served_operations)) == [], f"operations no longer served; {HINT}"

    schemas = document["components"]["schemas"]
    missing_schemas = sorted(set(schemas) - set(songmint.types.SCHEMA_FINGERPRINTS))
    assert missing_schemas == [], f"schemas the client lacks: {missing_schemas}; {HINT}"
    changed_schemas = sorted(name for name, schema in schemas.items() if songmint.types.SCHEMA_FINGERPRINTS[name] != fingerprint(schema))
    assert changed_schemas == [], f"schemas changed since generation: {changed_schemas}; {HINT}"
    assert document["info"]["version"] == songmint.API_VERSION
    assert list(document["components"]["schemas"]["ErrorCode"]["enum"]) == list(songmint.API_ERROR_CODES)


def test_each_operation_has_a_typed_method_on_both_clients() -> None:
    for operation_id in songmint.OPERATIONS:
        name = "".join(f"_{ch.lower()}" if ch.isupper() else ch for ch in operation_id).lstrip("_")
        for client in (songmint.Client, songmint.AsyncClient):
            method = getattr(client, name, None)
            assert method is not None, f"{client.__name__} lacks {name} ({operation_id})"
            assert inspect.signature(method).return_annotation != inspect.Signature.empty
