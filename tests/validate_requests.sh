#!/usr/bin/env bash
# Validates every request body gem-ask sent in the integration tests against
# the official Gemini v1beta schema (google-ai-generativelanguage protos and
# google-genai types), with ../shared/tools/validate_gemini.py: the
# GenerateContentRequest bodies of the fake Gemini server (`*.json`), and the
# BatchEmbedContentsRequest bodies of the fake embedding endpoint
# (`*.embed.json`, tests/it/support/embed.rs), and the Batch API's create
# bodies of `gem-ask map --batch` (`*.batchCreate.json`, tests/it/support/batch.rs;
# each of their requests is also captured alone as a GenerateContentRequest).
#
#   tests/validate_requests.sh            # runs the gem_ask_* tests, then validates
#   tests/validate_requests.sh --no-test  # validates what is already captured
#
# Environment: GEMLINE_SHARED (default ../shared from the repo root),
# GEMLINE_CAPTURE_DIR (default target/gemini-requests), PYTHON (default python3).
# Creates .venv with the two validator packages, at the pinned versions, when
# it is missing or holds others. Those versions know every field gem-ask
# sends: generationConfig.responseJsonSchema (--schema), tools googleSearch
# and urlContext (web_search, web_fetch), and CountTokensRequest for
# --count-tokens (bodies captured as NAME-N.countTokens.json).
# google-ai-generativelanguage 0.12.1, the newest on PyPI, has no
# ThinkingConfig.thinking_level (--thinking on Gemini 3): a body holding one
# is checked against the proto without it, and its level by google-genai,
# whose ThinkingLevel enum has it; the count is said at the end. google-genai
# only warns about an enum value it does not know: here that is an error.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
shared="${GEMLINE_SHARED:-$root/../shared}"
validator="$shared/tools/validate_gemini.py"
capture="${GEMLINE_CAPTURE_DIR:-$root/target/gemini-requests}"
venv="$root/.venv"

if [[ ! -f "$validator" ]]; then
    echo "validate_requests: no validator at $validator (set GEMLINE_SHARED)" >&2
    exit 66
fi
pins=(google-ai-generativelanguage==0.12.1 google-genai==3.6.1)
if [[ ! -x "$venv/bin/python" ]]; then
    "${PYTHON:-python3}" -m venv "$venv"
fi
if ! "$venv/bin/python" - "${pins[@]}" <<'PY' 2>/dev/null; then
import importlib.metadata as m, sys
sys.exit(0 if all(m.version(p.split("==")[0]) == p.split("==")[1] for p in sys.argv[1:]) else 1)
PY
    "$venv/bin/pip" install --quiet "${pins[@]}"
fi

if [[ "${1:-}" != "--no-test" ]]; then
    rm -rf "$capture"
    mkdir -p "$capture"
    (cd "$root" && GEMLINE_CAPTURE_DIR="$capture" cargo test --quiet --test it -- gem_ask_ memory_)
fi

shopt -s nullglob
files=("$capture"/*.json)
if (( ${#files[@]} == 0 )); then
    echo "validate_requests: no captured request bodies in $capture" >&2
    exit 66
fi

# One interpreter for all files: importing the proto packages costs a second.
"$venv/bin/python" - "$validator" "${files[@]}" <<'PY'
import importlib.util, json, sys, warnings
spec = importlib.util.spec_from_file_location("validate_gemini", sys.argv[1])
v = importlib.util.module_from_spec(spec)
spec.loader.exec_module(v)
from google.ai import generativelanguage_v1beta as glm
proto_thinking = set(glm.ThinkingConfig.meta.fields)
level_by_genai = 0

def embed_errors(path, raw):
    """A BatchEmbedContentsRequest: the proto, and what the API adds: each
    request names the model of the URL (models/NAME), a title only with
    RETRIEVAL_DOCUMENT."""
    errs = []
    try:
        glm.BatchEmbedContentsRequest.from_json(raw.decode(), ignore_unknown_fields=False)
    except Exception as e:
        errs.append(f"proto: {type(e).__name__}: {str(e)[:400]}")
    body = json.loads(raw)
    for i, r in enumerate(body.get("requests", [])):
        if not str(r.get("model", "")).startswith("models/"):
            errs.append(f"requests[{i}].model: {r.get('model')!r} is not models/NAME")
        if "title" in r and r.get("taskType") != "RETRIEVAL_DOCUMENT":
            errs.append(f"requests[{i}]: a title needs taskType RETRIEVAL_DOCUMENT")
    if not body.get("requests"):
        errs.append("no requests")
    return errs

def batch_errors(path, raw):
    """A batchGenerateContent body. google-ai-generativelanguage 0.12.1 has
    no BatchGenerateContentRequest: the shape of the API reference
    (ai.google.dev/api/batch-mode) is checked field by field, and each
    request is checked as a GenerateContentRequest in its own file."""
    errs = []
    body = json.loads(raw)
    if set(body) != {"batch"}:
        errs.append(f"top level: {sorted(body)} is not just batch")
    batch = body.get("batch") or {}
    extra = set(batch) - {"displayName", "inputConfig", "priority"}
    if extra:
        errs.append(f"batch: unknown fields {sorted(extra)}")
    if not isinstance(batch.get("displayName"), str) or not batch.get("displayName"):
        errs.append("batch.displayName is required")
    ic = batch.get("inputConfig") or {}
    if len(ic) != 1 or not (set(ic) <= {"requests", "fileName"}):
        errs.append(f"batch.inputConfig: one of requests or fileName, found {sorted(ic)}")
    if "fileName" in ic and not str(ic["fileName"]).startswith("files/"):
        errs.append("batch.inputConfig.fileName is not files/ID")
    if "requests" in ic:
        items = (ic["requests"] or {}).get("requests")
        if not isinstance(items, list) or not items:
            errs.append("batch.inputConfig.requests.requests: a list of requests")
        for i, it in enumerate(items or []):
            if set(it) - {"request", "metadata"} or not isinstance(it.get("request"), dict):
                errs.append(f"requests[{i}]: request and metadata only, found {sorted(it)}")
            if not isinstance((it.get("metadata") or {}).get("key"), str):
                errs.append(f"requests[{i}].metadata.key: a string")
            try:
                glm.GenerateContentRequest.from_json(json.dumps(it.get("request")), ignore_unknown_fields=False)
            except Exception as e:
                errs.append(f"requests[{i}].request: proto: {type(e).__name__}: {str(e)[:300]}")
    return errs

failed = 0
for path in sys.argv[2:]:
    raw = open(path, "rb").read()
    errs = []
    if path.endswith(".embed.json") or path.endswith(".batchCreate.json"):
        errs = (embed_errors if path.endswith(".embed.json") else batch_errors)(path, raw)
        if errs:
            failed += 1
            print(f"FAIL {path}")
            for e in errs:
                print("    " + e)
        continue
    body = json.loads(raw)
    count = path.endswith(".countTokens.json")
    if count:
        # countTokens takes a CountTokensRequest; its generateContentRequest
        # is the very body a turn sends, with the model named.
        try:
            glm.CountTokensRequest.from_json(raw.decode(), ignore_unknown_fields=False)
        except Exception as e:
            errs.append(f"proto: {type(e).__name__}: {str(e)[:400]}")
        body = body.get("generateContentRequest") or {}
        if not body.get("model", "").startswith("models/"):
            errs.append("countTokens: generateContentRequest.model must be models/NAME")
    else:
        text = raw.decode()
        thinking = (body.get("generationConfig") or {}).get("thinkingConfig") or {}
        if "thinkingLevel" in thinking and "thinking_level" not in proto_thinking:
            stripped = json.loads(text)
            del stripped["generationConfig"]["thinkingConfig"]["thinkingLevel"]
            text = json.dumps(stripped)
            level_by_genai += 1
        try:
            v.proto_parse("request", text, False)
        except Exception as e:
            errs.append(f"proto: {type(e).__name__}: {str(e)[:400]}")
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            v.genai_check_request(body)
        for w in caught:
            if "is not a valid" in str(w.message):
                errs.append(f"genai: {w.message}")
    except Exception as e:
        errs.append(f"genai: {type(e).__name__}: {str(e)[:400]}")
    # The schema takes any role string; the API knows only these two.
    roles = {c.get("role") for c in body.get("contents", [])}
    if not roles <= {"user", "model"}:
        errs.append(f"roles: contents may only be user or model, found {sorted(map(str, roles))}")
    if errs:
        failed += 1
        print(f"FAIL {path}")
        for e in errs:
            print("    " + e)
if level_by_genai:
    print(f"validate_requests: {level_by_genai} bodies hold thinkingConfig.thinkingLevel, which "
          "google-ai-generativelanguage lacks: checked by google-genai's ThinkingLevel")
print(f"validate_requests: {len(sys.argv) - 2 - failed} of {len(sys.argv) - 2} request bodies valid")
sys.exit(1 if failed else 0)
PY
