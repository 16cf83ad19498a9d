"""A small Ariadne client using only the Python standard library.

    from ariadne import Ariadne
    a = Ariadne("http://127.0.0.1:3000", token="...")
    with a.create_session() as s:
        page = s.role()
        page.navigate("https://example.com")
        print(page.snapshot(format="text")["snapshot"])

Every non-2xx answer raises AriadneError with the service's stable code (see docs/api.md,
error table), its HTTP status, message and details (hint, diagnostics).
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Iterator, List, Optional, Union

__all__ = ["Ariadne", "AriadneError", "Session", "Role"]

_REF = re.compile(r"^(f\d+)?e\d+$")


class AriadneError(Exception):
    """An error answer of the service: `code` is stable (e.g. "ref_not_found")."""

    def __init__(self, status: int, code: str, message: str, details: Optional[Dict[str, Any]] = None):
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = details or {}

    @property
    def hint(self) -> Optional[str]:
        return self.details.get("hint")


def _target(target: str) -> Dict[str, str]:
    """A ref ("e12") targets by ref; anything else is a description for the ladder."""
    return {"ref": target} if _REF.match(target) else {"description": target}


class Ariadne:
    def __init__(self, base_url: str, token: Optional[str] = None, timeout: float = 120.0):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout

    # -- transport -------------------------------------------------------------------
    def _open(self, method: str, path: str, query: Optional[Dict[str, Any]] = None, body: Any = None, accept: str = "application/json"):
        url = self.base_url + path
        if query:
            q = {k: ("true" if v is True else "false" if v is False else v) for k, v in query.items() if v is not None}
            if q:
                url += "?" + urllib.parse.urlencode(q)
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(url, data=data, method=method)
        req.add_header("accept", accept)
        if data is not None:
            req.add_header("content-type", "application/json")
        if self.token:
            req.add_header("authorization", f"Bearer {self.token}")
        try:
            return urllib.request.urlopen(req, timeout=self.timeout)
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                err = json.loads(raw)["error"]
                raise AriadneError(e.code, err["code"], err.get("message", err["code"]), err.get("details")) from None
            except (ValueError, KeyError, TypeError):
                raise AriadneError(e.code, "unexpected_response", f"HTTP {e.code}: {raw[:200]!r}") from None
        except urllib.error.URLError as e:
            raise AriadneError(0, "network_error", f"Could not reach Ariadne at {self.base_url}: {e.reason}") from None

    def request(self, method: str, path: str, query: Optional[Dict[str, Any]] = None, body: Any = None) -> Any:
        """JSON in, JSON out (None for 204; bytes for images)."""
        with self._open(method, path, query, body) as res:
            raw = res.read()
            ctype = res.headers.get("content-type", "")
        if not raw:
            return None
        if "json" in ctype:
            return json.loads(raw)
        return raw if ctype.startswith("image/") else raw.decode()

    # -- sessions --------------------------------------------------------------------
    def create_session(self, roles: Optional[List[Union[str, Dict[str, Any]]]] = None, **options: Any) -> "Session":
        body: Dict[str, Any] = dict(options)
        if roles:
            body["roles"] = [{"name": r} if isinstance(r, str) else r for r in roles]
        info = self.request("POST", "/v1/sessions", body=body)
        return Session(self, info["id"], info)

    def session(self, session_id: str) -> "Session":
        return Session(self, session_id)

    def list_sessions(self) -> Dict[str, Any]:
        return self.request("GET", "/v1/sessions")

    # -- flow runs -------------------------------------------------------------------
    def start_run(self, url: str, plan: str, **options: Any) -> Dict[str, Any]:
        return self.request("POST", "/v1/runs", body={"url": url, "plan": plan, **options})

    def get_run(self, run_id: str) -> Dict[str, Any]:
        return self.request("GET", f"/v1/runs/{urllib.parse.quote(run_id, safe='')}")

    def wait_for_run(self, run_id: str, timeout: float = 600.0, interval: float = 0.5) -> Dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            run = self.get_run(run_id)
            if run["status"] not in ("queued", "running"):
                return run
            if time.monotonic() > deadline:
                raise AriadneError(0, "timeout", f"Run {run_id} did not finish in {timeout} s.")
            time.sleep(interval)

    def follow_run(self, run_id: str, since: int = 0) -> Iterator[Dict[str, Any]]:
        """A run's events as they happen (server-sent events): {"seq", "type", "data"}."""
        path = f"/v1/runs/{urllib.parse.quote(run_id, safe='')}/events"
        with self._open("GET", path, {"since": since}, accept="text/event-stream") as res:
            event: Dict[str, Any] = {"data": []}
            for line in res:
                line = line.decode().rstrip("\r\n")
                if line == "":
                    if event["data"]:
                        raw = "\n".join(event["data"])
                        try:
                            data = json.loads(raw)
                        except ValueError:
                            data = raw
                        yield {"seq": int(event.get("id", 0)), "type": event.get("event", "message"), "data": data}
                    event = {"data": []}
                elif line.startswith(":"):
                    continue
                else:
                    field, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if field == "data":
                        event["data"].append(value)
                    elif field in ("id", "event"):
                        event[field] = value


class Session:
    def __init__(self, client: Ariadne, session_id: str, info: Optional[Dict[str, Any]] = None):
        self.client = client
        self.id = session_id
        self.info = info

    def role(self, name: str = "default") -> "Role":
        return Role(self, name)

    def add_role(self, name: str, **spec: Any) -> "Role":
        self.client.request("POST", f"/v1/sessions/{self.id}/roles", body={"name": name, **spec})
        return self.role(name)

    def get(self) -> Dict[str, Any]:
        return self.client.request("GET", f"/v1/sessions/{self.id}")

    def close(self) -> None:
        self.client.request("DELETE", f"/v1/sessions/{self.id}")

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: Any) -> None:
        try:
            self.close()
        except AriadneError:
            pass


class Role:
    """One role's browser context: page operations on its active tab."""

    def __init__(self, session: Session, name: str):
        self.session = session
        self.name = name

    @property
    def _path(self) -> str:
        return f"/v1/sessions/{self.session.id}/roles/{urllib.parse.quote(self.name, safe='')}"

    def get(self, op: str, **query: Any) -> Any:
        """Any GET page operation: get("explore/container", ref="e3", format="text")."""
        return self.session.client.request("GET", f"{self._path}/{op}", query)

    def act(self, action: str, target: Optional[str] = None, **fields: Any) -> Dict[str, Any]:
        body = {"action": action, **fields}
        if target is not None:
            body.update(_target(target))
        return self.session.client.request("POST", f"{self._path}/actions", body=body)

    def snapshot(self, **query: Any) -> Dict[str, Any]:
        return self.get("snapshot", **query)

    def navigate(self, url: str, **fields: Any) -> Dict[str, Any]:
        return self.act("navigate", url=url, **fields)

    def click(self, target: str, **fields: Any) -> Dict[str, Any]:
        return self.act("click", target, **fields)

    def fill(self, target: str, value: str, **fields: Any) -> Dict[str, Any]:
        return self.act("fill", target, value=value, **fields)

    def press(self, key: str, target: Optional[str] = None, **fields: Any) -> Dict[str, Any]:
        return self.act("press", target, key=key, **fields)

    def select(self, target: str, value: Union[str, List[str]], **fields: Any) -> Dict[str, Any]:
        return self.act("select", target, value=value, **fields)

    def locators(self, ref: str) -> Dict[str, Any]:
        return self.get("locators", ref=ref)

    def screenshot(self, **query: Any) -> bytes:
        return self.get("screenshot", **query)
