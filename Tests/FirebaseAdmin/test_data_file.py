"""live-server started on a data file, as a user meets it: the built binary
as a process with --data, read and written by the Python firebase-admin
package.

The file holds hostile data beside plain children: whitespace, escapes,
fractions, -0, long integers, nulls, arrays and array-like objects,
priorities and wrapped values (the export format), a member given twice,
canonically equivalent and numeric-looking keys, a deep path, a huge
value, and an object of thousands of members (which the server keeps in a
table of the file's text), some given twice, null or prioritized. The same value written by firebase-admin to the suite's running
server (LIVE_SERVER_URL) is the reference: every read (whole, shallow,
ordered and limited queries, ETags) must answer the same from both, before
and after the same writes, and after the file server restarts.

LIVE_SERVER and LIVE_SERVER_URL are set by Tools/test-firebase-admin;
LIVE_TEST_SEED replays a run (the seed is printed on failure).
"""
import json
import os
import random
import shutil
import subprocess
import tempfile
import unittest

import firebase_admin
from firebase_admin import db

SEED = int(os.environ.get("LIVE_TEST_SEED", "20261126"))
WAIT = 30  # seconds: a bound for a hung process, never a way to wait


def hostile_items(rng):
    """The text of {"items": ...} with plain and hostile children."""
    members = []
    for i in range(300):
        members.append('"c%03d":{"title":"Item %d","s":%d,"group":"g%d","tags":{"red":true}}'
                       % (i, i, rng.randrange(-10**12, 10**12), i % 7))
    deep = "1"
    for level in range(29):  # 31 keys in the file, 32 under the reference's base
        deep = '{"d%d":%s}' % (level, deep)
    members += [
        '"spaced" : { "a" : 1 ,\n "b" : [ 1 , null ] }',
        '"array":[1,null,3,{"x":null}]',
        '"arraylike":{"0":"x","1":"y","3":"z"}',
        '"sparse":{"0":"x","9":"y"}',
        '"nulls":{"a":null,"b":{},"c":{"d":null},"e":1}',
        '"gone":null',
        '"numbers":{"f":1.5,"one":1.0,"exp":2e3,"negzero":-0,"long":1234567890123456,"big":9007199254740993}',
        '"escaped":"q\\"q\\n\\u00e9"',
        # Escapes exactly as the server writes them: kept as the file's text.
        '"canon":{"t":"q\\"q\\t\\\\ \\n\\u001f","u":"\\b\\f\\r","v":"é😀"}',
        '"\\u0063af\\u00e9":"escaped key"',
        '"caf\u00e9":"composed"',
        '"cafe\u0301":"decomposed"',
        '"007":"zeros","7":"seven","-1":"minus","10":"ten"',
        '"dup":{"a":1,"a":2},"dup":{"b":3}',
        '"dup2":{"a":1,"a":2}',
        '"prio":{".priority":5,"v":1}',
        '"wrapped":{".value":"w",".priority":"p"}',
        '"deep":' + deep,
        '"huge":"%s"' % ("x" * 200_000),
        '"large":{%s}' % ",".join('"m%d":{"n":%d,"t":"%s"}' % (i, i, "y" * 40) for i in range(400)),
        '"table":{%s}' % ",".join(table_members(rng)),
    ]
    rng.shuffle(members)
    return '{"items":{' + ",".join(members) + '},"top":{".priority":1,"k":"v"}}'


def table_members(rng):
    """More members than the server keeps in a dictionary when it reads a
    file (it keeps them in a table of the text): plain ones, and a few
    given twice, null, prioritized or with a fraction."""
    members = []
    for i in range(6500):
        name = "t%d" % (rng.randrange(i + 1) if rng.random() < 0.03 else i)
        value = rng.choice(['{"n":%d,"g":"g%d"}' % (rng.randrange(1000), i % 5), '"s%d"' % i, "%d" % i, "null",
                            '{".priority":%d,"n":%d}' % (i % 3, i), '{"n":%d.5}' % i])
        members.append('"%s":%s' % (name, value))
    return members


class Server:
    """live-server as a process on a data file (on a free port, or `port`)."""

    def __init__(self, data, port=0):
        self.process = subprocess.Popen([os.environ["LIVE_SERVER"], "--port", str(port), "--data", data],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.url = self.process.stdout.readline().strip()
        if not self.url.startswith("http://"):
            self.process.kill()
            raise AssertionError("live-server did not start: %r %s" % (self.url, self.process.stdout.read()))

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=WAIT)
        self.process.stdout.close()


def client(name, url):
    """A firebase-admin app talking to the server at url."""
    saved = os.environ["FIREBASE_DATABASE_EMULATOR_HOST"]
    os.environ["FIREBASE_DATABASE_EMULATOR_HOST"] = url[len("http://"):]
    try:
        app = firebase_admin.initialize_app(options={"databaseURL": "https://live-test.firebaseio.com"}, name=name)
        db.reference("/", app=app).get(shallow=True)  # the service reads the host now
        return app
    finally:
        os.environ["FIREBASE_DATABASE_EMULATOR_HOST"] = saved


class DataFileTests(unittest.TestCase):
    def setUp(self):
        self.rng = random.Random(SEED)
        self.dir = tempfile.mkdtemp()
        self.apps = []
        self.servers = []

    def tearDown(self):
        for server in self.servers:
            if server.process.poll() is None:
                server.stop()
        for app in self.apps:
            firebase_admin.delete_app(app)
        shutil.rmtree(self.dir)

    def start(self, data, name):
        server = Server(data)
        self.servers.append(server)
        app = client(name, server.url)
        self.apps.append(app)
        return server, app

    def assert_same_reads(self, file_app, body_app, base, context):
        reads = [
            ("whole", lambda r: r.get()),
            ("shallow", lambda r: r.get(shallow=True)),
            ("etag", lambda r: r.get(etag=True)[1]),
        ]
        for name, read in reads:
            self.assertEqual(read(db.reference("/", app=file_app)), read(db.reference(base, app=body_app)),
                             "seed %d, %s: %s of /" % (SEED, context, name))
        for path in ["items/canon", "items/canon/t", "items/spaced", "items/deep/d28/d27", "items/dup", "items/dup2", "items/dup2/a", "items/arraylike", "items/large/m7", "items/table/t7", "items/table"]:
            self.assertEqual(db.reference(path, app=file_app).get(etag=True),
                             db.reference(base + "/" + path, app=body_app).get(etag=True),
                             "seed %d, %s: %s" % (SEED, context, path))
        for query in [lambda r: r.order_by_child("s").limit_to_first(5),
                      lambda r: r.order_by_child("s").start_at(0).limit_to_last(7),
                      lambda r: r.order_by_key().start_at("0").end_at("c010"),
                      lambda r: r.order_by_value().limit_to_first(3)]:
            self.assertEqual(query(db.reference("items", app=file_app)).get(),
                             query(db.reference(base + "/items", app=body_app)).get(),
                             "seed %d, %s: a query" % (SEED, context))
        for query in [lambda r: r.order_by_child("n").limit_to_last(9),
                      lambda r: r.order_by_key().start_at("t100").end_at("t2"),
                      lambda r: r.order_by_value().limit_to_first(4)]:
            self.assertEqual(query(db.reference("items/table", app=file_app)).get(),
                             query(db.reference(base + "/items/table", app=body_app)).get(),
                             "seed %d, %s: a query of the table" % (SEED, context))

    def test_a_data_file_reads_as_the_same_value_written(self):
        text = hostile_items(self.rng)
        data = os.path.join(self.dir, "data.json")
        with open(data, "w", encoding="utf-8") as f:
            f.write(text)
        server, file_app = self.start(data, "file-%d" % SEED)
        body_app = firebase_admin.get_app()
        base = "/datafile-%d" % SEED
        db.reference(base, app=body_app).set(json.loads(text))
        self.assert_same_reads(file_app, body_app, base, "as loaded")

        # The same writes leave the same data, in plain children and others.
        for step in range(40):
            path = "items/" + self.rng.choice(["c%03d" % self.rng.randrange(300), "spaced", "dup", "arraylike",
                                               "large/m%d" % self.rng.randrange(400), "numbers", "canon",
                                               "table/t%d" % self.rng.randrange(6600),
                                               "new%d" % step])
            path += self.rng.choice(["", "/s", "/tags/red", "/a"])
            value = self.rng.choice([None, 1, 2.5, "v", {"x": 1}, [1, 2], {"s": self.rng.randrange(100)}])
            for ref in [db.reference(path, app=file_app), db.reference(base + "/" + path, app=body_app)]:
                if value is None:
                    ref.delete()
                else:
                    ref.set(value)
        update = {"c001/s": 5, "c002": None, "large/m1/n": -1, "table/t3": None, "table/t4/n": 8, "table/x": 1}
        db.reference("items", app=file_app).update(update)
        db.reference(base + "/items", app=body_app).update(update)
        self.assert_same_reads(file_app, body_app, base, "after writes")

        # A restart reads the compacted file back as it was.
        server.stop()
        firebase_admin.delete_app(file_app)
        self.apps.remove(file_app)
        _, file_app = self.start(data, "file-again-%d" % SEED)
        self.assert_same_reads(file_app, body_app, base, "after a restart")
        db.reference(base, app=body_app).delete()


def setUpModule():
    if not firebase_admin._apps:
        firebase_admin.initialize_app(options={"databaseURL": "https://live-test.firebaseio.com"})


if __name__ == "__main__":
    unittest.main(verbosity=2)
