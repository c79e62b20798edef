#!/usr/bin/env python3
"""Certificates and nginx TLS servers for Ferry's TLS tests (scripts/servers.sh runs it).

    make-test-certificates.py DIR PORT...   (nine ports, in the order of CASES below)

Writes into DIR: a root CA and an intermediate CA (the chain every good server certificate hangs from), a server
certificate for each case, a client CA with a client certificate (PEM, and PKCS#12 with the password "ferry"),
nginx-tls.conf (one TLS server per case, to include in nginx's http block), ports.json ({case: port}) and
pins.json ({file: "sha256/BASE64"}, the public key pin of the first certificate of each file, computed here by
`cryptography` so that Ferry's own reading of certificates is checked against another's). Made again on every run:
validity is relative to now.
"""
import base64
import datetime
import hashlib
import ipaddress
import json
import sys
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

# (case, what the server presents, nginx directives)
CASES = [
    ("valid", "leaf", ""),  # leaf + intermediate, for 127.0.0.1 and localhost; HTTP/2 offered (ALPN)
    ("expired", "expired", ""),
    ("notYetValid", "notyet", ""),
    ("wrongHost", "wronghost", ""),  # valid chain, names only wrong.test
    ("selfSigned", "selfsigned", ""),
    ("incompleteChain", "leaf-alone", ""),  # the leaf without its intermediate
    ("clientCertificateRequired", "leaf", "ssl_verify_client on;\n        ssl_client_certificate {dir}/client-ca.pem;"),
    ("tls12Only", "leaf", "ssl_protocols TLSv1.2;"),
    ("tls13Only", "leaf", "ssl_protocols TLSv1.3;"),
]

NOW = datetime.datetime.now(datetime.timezone.utc)
DAY = datetime.timedelta(days=1)


def key():
    return ec.generate_private_key(ec.SECP256R1())


def name(common):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def certificate(subject, subject_key, issuer, issuer_key, *, ca=False, names=None, client=False,
                not_before=NOW - DAY, not_after=NOW + 30 * DAY):
    builder = (x509.CertificateBuilder().subject_name(name(subject)).issuer_name(name(issuer))
               .public_key(subject_key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(not_before).not_valid_after(not_after)
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if ca:
        builder = builder.add_extension(
            x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True, content_commitment=False,
                          key_encipherment=False, data_encipherment=False, key_agreement=False,
                          encipher_only=False, decipher_only=False), critical=True)
    else:
        usage = x509.oid.ExtendedKeyUsageOID.CLIENT_AUTH if client else x509.oid.ExtendedKeyUsageOID.SERVER_AUTH
        builder = builder.add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
    if names:
        entries = []
        for n in names:
            try:
                entries.append(x509.IPAddress(ipaddress.ip_address(n)))
            except ValueError:
                entries.append(x509.DNSName(n))
        builder = builder.add_extension(x509.SubjectAlternativeName(entries), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def pem(cert):
    return cert.public_bytes(serialization.Encoding.PEM)


def key_pem(k):
    return k.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                           serialization.NoEncryption())


def main():
    out = Path(sys.argv[1])
    ports = sys.argv[2:]
    if len(ports) != len(CASES):
        sys.exit(f"make-test-certificates: {len(CASES)} ports expected, got {len(ports)}")
    out.mkdir(parents=True, exist_ok=True)
    here = ["127.0.0.1", "localhost", "::1"]

    root_key, inter_key = key(), key()
    root = certificate("Ferry Test Root CA", root_key, "Ferry Test Root CA", root_key, ca=True,
                       not_after=NOW + 365 * DAY)
    inter = certificate("Ferry Test Intermediate CA", inter_key, "Ferry Test Root CA", root_key, ca=True,
                        not_after=NOW + 365 * DAY)
    (out / "root-ca.pem").write_bytes(pem(root))
    (out / "root-ca.der").write_bytes(root.public_bytes(serialization.Encoding.DER))
    (out / "intermediate-ca.pem").write_bytes(pem(inter))

    def leaf(file, names, **validity):
        k = key()
        c = certificate("Ferry test server", k, "Ferry Test Intermediate CA", inter_key, names=names, **validity)
        (out / f"{file}.pem").write_bytes(pem(c) + pem(inter))
        (out / f"{file}.key").write_bytes(key_pem(k))
        return c, k

    leaf_cert, leaf_key = leaf("leaf", here)
    (out / "leaf-alone.pem").write_bytes(pem(leaf_cert))
    (out / "leaf-alone.key").write_bytes(key_pem(leaf_key))
    leaf("expired", here, not_before=NOW - 30 * DAY, not_after=NOW - DAY)
    leaf("notyet", here, not_before=NOW + DAY, not_after=NOW + 30 * DAY)
    leaf("wronghost", ["wrong.test"])
    self_key = key()
    self_signed = certificate("Ferry self-signed", self_key, "Ferry self-signed", self_key, names=here)
    (out / "selfsigned.pem").write_bytes(pem(self_signed))
    (out / "selfsigned.key").write_bytes(key_pem(self_key))

    client_ca_key, client_key = key(), key()
    client_ca = certificate("Ferry Test Client CA", client_ca_key, "Ferry Test Client CA", client_ca_key, ca=True)
    client = certificate("Ferry test client", client_key, "Ferry Test Client CA", client_ca_key, client=True)
    (out / "client-ca.pem").write_bytes(pem(client_ca))
    (out / "client.pem").write_bytes(pem(client))
    (out / "client.key").write_bytes(key_pem(client_key))
    # The same key encrypted with the password "ferry" (PKCS#8, PEM), for a PEM identity with a password.
    (out / "client-encrypted.key").write_bytes(client_key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.BestAvailableEncryption(b"ferry")))
    (out / "client.p12").write_bytes(pkcs12.serialize_key_and_certificates(
        b"ferry client", client_key, client, None, serialization.BestAvailableEncryption(b"ferry")))

    blocks = []
    for (case, presented, extra), port in zip(CASES, ports):
        directives = extra.format(dir=out)
        if "ssl_protocols" not in directives:
            directives = "ssl_protocols TLSv1.2 TLSv1.3;\n        " + directives
        blocks.append(f"""    server {{
        listen 127.0.0.1:{port} ssl{" http2" if case == "valid" else ""};
        server_name localhost;
        ssl_certificate {out}/{presented}.pem;
        ssl_certificate_key {out}/{presented}.key;
        {directives}
        location / {{
            default_type application/json;
            return 200 '{{"tls":"$ssl_protocol","client":"$ssl_client_s_dn"}}';
        }}
    }}""")
    (out / "nginx-tls.conf").write_text("# generated by scripts/make-test-certificates.py\n" + "\n".join(blocks) + "\n")
    (out / "ports.json").write_text(json.dumps({case: int(port) for (case, _, _), port in zip(CASES, ports)}))

    def pin(c):
        spki = c.public_key().public_bytes(serialization.Encoding.DER,
                                           serialization.PublicFormat.SubjectPublicKeyInfo)
        return "sha256/" + base64.b64encode(hashlib.sha256(spki).digest()).decode()
    pins = {"root-ca.pem": root, "intermediate-ca.pem": inter, "leaf-alone.pem": leaf_cert,
            "selfsigned.pem": self_signed, "client.pem": client, "client-ca.pem": client_ca}
    (out / "pins.json").write_text(json.dumps({file: pin(c) for file, c in pins.items()}))


if __name__ == "__main__":
    main()
