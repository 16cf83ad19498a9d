"""Tests of ariadne.py against a running service (started by tests/client-python.test.ts).

Environment: ARIADNE_URL, ARIADNE_TOKEN, FIXTURES_URL.
"""

import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ariadne import Ariadne, AriadneError  # noqa: E402

URL = os.environ["ARIADNE_URL"]
TOKEN = os.environ.get("ARIADNE_TOKEN")
FIXTURES = os.environ["FIXTURES_URL"]


class AriadneClientTest(unittest.TestCase):
    def setUp(self):
        self.a = Ariadne(URL, token=TOKEN)

    def test_session_roles_and_actions(self):
        with self.a.create_session(roles=["admin", "customer"]) as s:
            customer = s.role("customer")
            nav = customer.navigate(FIXTURES + "/products.html")
            self.assertTrue(nav["ok"])
            snap = customer.snapshot(format="text", maxTokens=2000)["snapshot"]
            ref = re.search(r'button "Add to Cart" \[(e\d+)\]', snap).group(1)
            res = customer.click(ref, snapshot="diff")
            self.assertEqual(res["target"], {"resolvedBy": "ref", "ref": ref})
            changed = [c["after"] for c in res["snapshot"]["diff"]["changed"]]
            self.assertTrue(any("Cart: 1 item" in str(c) for c in changed), changed)
            container = customer.get("explore/container", ref=ref, format="text")["text"]
            self.assertIn("product-card", container)
            locs = customer.locators(ref)["locators"]
            self.assertEqual(locs[0]["verified"]["matches"], 1)
            admin = s.role("admin")
            admin.navigate(FIXTURES + "/controls.html")
            admin.select("Country", "jp")
            admin.fill("Search", "mug")
            admin.press("Enter", "Search")
            self.assertIn("submitted: mug", admin.snapshot(format="text")["snapshot"])
            late = s.add_role("auditor")
            self.assertEqual(late.name, "auditor")
            self.assertEqual(sorted(r["name"] for r in s.get()["roles"]), ["admin", "auditor", "customer"])
            png = customer.screenshot()
            self.assertEqual(png[1:4], b"PNG")
        self.assertEqual(self.a.list_sessions()["total"], 0)

    def test_errors_carry_the_stable_code(self):
        with self.a.create_session() as s:
            page = s.role()
            page.navigate(FIXTURES + "/products.html")
            with self.assertRaises(AriadneError) as cm:
                page.click("e999")
            self.assertEqual(cm.exception.code, "ref_not_found")
            self.assertEqual(cm.exception.status, 409)
            self.assertIn("snapshot", cm.exception.hint)
            with self.assertRaises(AriadneError) as cm:
                page.click("Add to Cart")
            self.assertEqual(cm.exception.code, "ambiguous_target")
            self.assertGreater(len(cm.exception.details["candidates"]), 1)
        with self.assertRaises(AriadneError) as cm:
            self.a.session("no-such-session").get()
        self.assertEqual((cm.exception.status, cm.exception.code), (404, "session_not_found"))
        with self.assertRaises(AriadneError) as cm:
            Ariadne(URL, token="wrong-key-0123456789abc").list_sessions()
        self.assertEqual(cm.exception.code, "unauthorized")
        with self.assertRaises(AriadneError) as cm:
            Ariadne("http://127.0.0.1:9").list_sessions()
        self.assertEqual(cm.exception.code, "network_error")

    def test_flow_run_followed_over_sse(self):
        plan = '#Case 1: Log in\n- Type {{USER}} into "Username"\n- Type {{PASSWORD}} into "Password"\n- Click the "Log in" button\n- Verify "Welcome, {{USER}}" is visible'
        run = self.a.start_run(FIXTURES + "/app/login.html", plan, variables={"USER": "alice", "PASSWORD": "secret"})
        events = list(self.a.follow_run(run["id"]))
        types = [e["type"] for e in events]
        self.assertEqual(types[0], "run_queued")
        self.assertEqual(types[-1], "run_finished")
        self.assertIn("step", types)
        self.assertEqual([e["seq"] for e in events], sorted(e["seq"] for e in events))
        self.assertEqual(self.a.wait_for_run(run["id"])["status"], "passed")
        mid = events[len(events) // 2]["seq"]
        rest = list(self.a.follow_run(run["id"], since=mid))
        self.assertEqual(rest[0]["seq"], mid + 1)
        with self.assertRaises(AriadneError) as cm:
            self.a.get_run("nope")
        self.assertEqual(cm.exception.code, "run_not_found")


if __name__ == "__main__":
    unittest.main()
