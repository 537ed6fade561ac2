#!/usr/bin/env python3
"""Creates a bucket on an S3-compatible server, signed with SigV4 (the standard library
only): Scripts/seaweedfs.sh's readiness check, which passes once the server answers signed
requests. An existing bucket of ours counts as created.

Usage: s3-create-bucket.py ENDPOINT BUCKET ACCESS_KEY SECRET [REGION]; exit 0 when the
bucket exists."""
import datetime
import hashlib
import hmac
import sys
import urllib.error
import urllib.parse
import urllib.request


def main():
    endpoint, bucket, access_key, secret = sys.argv[1:5]
    region = sys.argv[5] if len(sys.argv) > 5 else "us-east-1"
    host = urllib.parse.urlparse(endpoint).netloc
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    payload = hashlib.sha256(b"").hexdigest()
    canonical = "\n".join(["PUT", "/" + bucket, "", f"host:{host}", f"x-amz-content-sha256:{payload}", f"x-amz-date:{stamp}", "",
                           "host;x-amz-content-sha256;x-amz-date", payload])
    scope = f"{stamp[:8]}/{region}/s3/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", stamp, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    key = ("AWS4" + secret).encode()
    for part in (stamp[:8], region, "s3", "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    request = urllib.request.Request(endpoint + "/" + bucket, method="PUT", data=b"", headers={
        "x-amz-date": stamp, "x-amz-content-sha256": payload,
        "Authorization": f"AWS4-HMAC-SHA256 Credential={access_key}/{scope}, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature={signature}",
    })
    try:
        urllib.request.urlopen(request, timeout=5).read()
    except urllib.error.HTTPError as error:
        body = error.read().decode(errors="replace")
        if "BucketAlreadyOwnedByYou" in body or "BucketAlreadyExists" in body:
            return 0
        print(f"HTTP {error.code}: {body}", file=sys.stderr)
        return 1
    except OSError as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
