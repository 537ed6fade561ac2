"""An S3-compatible store for the tests: SeaweedFS started on a folder and port of its own
(stopped and started again on the same ones), and a few signed calls that look into its
bucket the way an operator would (the standard library only: Juke's own client is what is
tested, so it is not what looks)."""
import datetime
import hashlib
import hmac
import os
import re
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from conftest import free_port

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ACCESS_KEY, SECRET = "jukekey", "jukesecret"
REGION = "us-east-1"


def signed_request(endpoint, method, path, query="", body=b"", headers=None):
    """A SigV4-signed request to the store, to open with urllib. `headers` go unsigned (a Range, say)."""
    host = urllib.parse.urlparse(endpoint).netloc
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    payload = hashlib.sha256(body).hexdigest()
    canonical_query = "&".join(sorted(query.split("&"))) if query else ""
    canonical = "\n".join([method, path, canonical_query, f"host:{host}", f"x-amz-content-sha256:{payload}", f"x-amz-date:{stamp}", "",
                           "host;x-amz-content-sha256;x-amz-date", payload])
    scope = f"{stamp[:8]}/{REGION}/s3/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", stamp, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    key = ("AWS4" + SECRET).encode()
    for part in (stamp[:8], REGION, "s3", "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    url = endpoint + path + ("?" + query if query else "")
    return urllib.request.Request(url, method=method, data=body if method in ("PUT", "POST") else None, headers={
        "x-amz-date": stamp, "x-amz-content-sha256": payload,
        "Authorization": f"AWS4-HMAC-SHA256 Credential={ACCESS_KEY}/{scope}, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature={signature}",
        **(headers or {}),
    })


def signed(endpoint, method, path, query="", body=b"", headers=None):
    """A signed request (`signed_request`) sent; returns (status, body bytes)."""
    try:
        with urllib.request.urlopen(signed_request(endpoint, method, path, query, body, headers), timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


class SeaweedFS:
    """`weed mini` on a folder and S3 port of its own, through Scripts/seaweedfs.sh."""

    def __init__(self, folder, bucket="juke-shared"):
        if not os.path.exists(os.path.join(ROOT, ".build", "seaweedfs", "weed")) and not os.environ.get("CI"):
            pytest.skip("SeaweedFS is fetched by Scripts/test.sh (Scripts/seaweedfs.sh)")
        self.folder = folder
        self.bucket = bucket
        self.port = free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.start()
        status, body = signed(self.endpoint, "PUT", "/" + bucket)
        assert status == 200 or b"BucketAlreadyOwnedByYou" in body, body

    def start(self):
        self.log = open(os.path.join(self.folder, "weed.log"), "a")
        self.process = subprocess.Popen(["bash", os.path.join(ROOT, "Scripts", "seaweedfs.sh"), "run", self.folder, str(self.port)],
                                        stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                # Ready once it answers signed calls (its S3 port opens before the filer behind it).
                if signed(self.endpoint, "GET", "/")[0] == 200:
                    return
            except OSError:
                pass
            assert self.process.poll() is None, open(self.log.name).read()[-3000:]
            time.sleep(0.3)
        raise RuntimeError("SeaweedFS did not start")

    def kill(self):
        """Stopped at once, as a crashed or unplugged store is."""
        self.process.kill()
        self.process.wait(timeout=15)
        self.log.close()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()

    def keys(self, prefix=""):
        """Every key under `prefix` in the bucket (one page is enough for a test)."""
        query = "list-type=2&prefix=" + urllib.parse.quote(prefix, safe="")
        status, body = signed(self.endpoint, "GET", "/" + self.bucket, query)
        assert status == 200, body
        return re.findall(r"<Key>([^<]+)</Key>", body.decode())

    def pending_uploads(self):
        """Multipart uploads begun and neither finished nor aborted."""
        status, body = signed(self.endpoint, "GET", "/" + self.bucket, "uploads=")
        assert status == 200, body
        return re.findall(r"<UploadId>([^<]+)</UploadId>", body.decode())

    def server_args(self, prefix="media"):
        return ["--storage", f"s3://{self.bucket}/{prefix}", "--s3-endpoint", self.endpoint]

    @staticmethod
    def environment():
        return dict(os.environ, AWS_ACCESS_KEY_ID=ACCESS_KEY, AWS_SECRET_ACCESS_KEY=SECRET)
