/*
 * tests/test_sig.c: tests of keys, statements and signatures.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/*
 * Tests of src/sig/: RFC 8032 vectors, keys and signatures made by the real
 * ssh-keygen (tests/data/sig, see regen.sh there), live round trips with
 * ssh-keygen, every statement parse error, the record chain.
 *
 * The live tests need ssh-keygen (Debian: openssh-client); they fail when it
 * is missing unless CORRCHESS_NO_SSH_KEYGEN=1 is set.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <sys/stat.h>
#include <sys/wait.h>
#include <errno.h>
#include <unistd.h>

#include <sodium.h>

#include "sig/sig.h"
#include "testutil.h"

static const char canon_text[] =
    "corrchess-v1\n"
    "game: 42\n"
    "ply: 16\n"
    "player: alice\n"
    "action: move Nf3\n";

/* Decode hex into out; returns the byte count. */
static size_t
hex(const char *h, uint8_t *out, size_t max)
{
	size_t n;

	assert_int_equal(sodium_hex2bin(out, max, h, strlen(h), NULL, &n,
	    NULL), 0);
	return n;
}

/* Read test data under tests/data/sig. */
static char *
sigdata(const char *name, size_t *lenp)
{
	char path[256];

	snprintf(path, sizeof path, "sig/%s", name);
	return test_read_data(path, lenp);
}

/* The public key in tests/data/sig/NAME.pub. */
static void
pubkey_of(const char *name, uint8_t pk[SIG_PUBKEY_BYTES])
{
	char file[64], *text;
	enum sig_error e;

	snprintf(file, sizeof file, "%s.pub", name);
	text = sigdata(file, NULL);
	assert_int_equal(sig_pubkey_parse(text, pk, &e), 0);
	assert_int_equal(e, SIG_OK);
	free(text);
}

/* Concatenate two strings into a malloc'd one. */
static char *
cat(const char *a, const char *b)
{
	char *s = malloc(strlen(a) + strlen(b) + 1);

	assert_non_null(s);
	strcpy(s, a);
	strcat(s, b);
	return s;
}

/* --- RFC 8032 ------------------------------------------------------- */

/* RFC 8032 section 7.1, TEST 1, 2 and 3. */
static const struct {
	const char *seed, *pk, *msg, *sig;
} rfc8032[] = {
	{ "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
	  "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
	  "",
	  "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
	  "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b" },
	{ "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
	  "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
	  "72",
	  "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
	  "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00" },
	{ "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
	  "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
	  "af82",
	  "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac"
	  "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a" },
};

/* Signing with an RFC 8032 seed gives its public key and signature. */
static void
test_rfc8032_vectors(void **state)
{
	uint8_t seed[32], pk[32], sk[64], msg[8], sig[64], want[64], got[64];
	char b64[sodium_base64_ENCODED_LEN(32,
	    sodium_base64_VARIANT_ORIGINAL)];
	enum sig_error e;
	size_t i, mlen;

	(void)state;
	for (i = 0; i < sizeof rfc8032 / sizeof rfc8032[0]; i++) {
		hex(rfc8032[i].seed, seed, sizeof seed);
		hex(rfc8032[i].pk, pk, sizeof pk);
		mlen = hex(rfc8032[i].msg, msg, sizeof msg);
		hex(rfc8032[i].sig, want, sizeof want);

		/* The seed as raw base64 secret key text. */
		sodium_bin2base64(b64, sizeof b64, seed, 32,
		    sodium_base64_VARIANT_ORIGINAL);
		assert_int_equal(sig_seckey_parse(b64, strlen(b64), sk, &e), 0);
		sig_seckey_pubkey(sk, got);
		assert_memory_equal(got, pk, 32);

		assert_int_equal(sig_sign(msg, mlen, sk, sig), 0);
		assert_memory_equal(sig, want, 64);
		assert_int_equal(sig_verify(msg, mlen, want, pk), 0);
		want[0] ^= 1;
		assert_int_equal(sig_verify(msg, mlen, want, pk), -1);
	}
}

/* --- public keys ---------------------------------------------------- */

/* An ssh-keygen key line parses, formats back and has ssh-keygen's
 * fingerprint. */
static void
test_pubkey_openssh(void **state)
{
	uint8_t pk[32], pk2[32];
	char *line, *fp, buf[SIG_PUBKEY_LINE_SIZE + 64];
	char fpr[SIG_FINGERPRINT_SIZE];
	enum sig_error e;

	(void)state;
	line = sigdata("alice.pub", NULL);
	assert_int_equal(sig_pubkey_parse(line, pk, &e), 0);
	assert_int_equal(sig_pubkey_format(pk, "alice@example.org", buf,
	    sizeof buf), 0);
	line[strcspn(line, "\n")] = '\0';
	assert_string_equal(buf, line);
	assert_int_equal(sig_pubkey_format(pk, NULL, buf, SIG_PUBKEY_LINE_SIZE),
	    0);
	assert_int_equal(strlen(buf), SIG_PUBKEY_LINE_SIZE - 1);
	assert_int_equal(sig_pubkey_parse(buf, pk2, &e), 0);
	assert_memory_equal(pk, pk2, 32);
	assert_int_equal(sig_pubkey_format(pk, NULL, buf,
	    SIG_PUBKEY_LINE_SIZE - 1), -1);

	fp = sigdata("alice.fingerprint", NULL);
	fp[strcspn(fp, "\n")] = '\0';
	sig_pubkey_fingerprint(pk, fpr);
	assert_string_equal(fpr, fp);
	free(fp);
	free(line);
}

/* Raw base64 keys and every public key error. */
static void
test_pubkey_errors(void **state)
{
	static const struct {
		const char *text;
		enum sig_error err;
	} bad[] = {
		{ "", SIG_EKEY_FORMAT },
		{ "   \n", SIG_EKEY_FORMAT },
		{ "AAAA", SIG_EKEY_LEN },
		{ "AAAA*AAA", SIG_EKEY_FORMAT },
		{ "AAAAA", SIG_EBASE64 },
		{ "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ x", SIG_EKEY_TYPE },
		{ "ecdsa-sha2-nistp256 AAAA x", SIG_EKEY_TYPE },
		{ "ssh-ed25519", SIG_EKEY_FORMAT },
		{ "ssh-ed25519 %%%%", SIG_EBASE64 },
		/* a blob saying ssh-ed25518 */
		{ "ssh-ed25519 AAAAC3NzaC1lZDI1NTE4AAAAIFUDLsK+6HNwIiJyTplsPAS4"
		  "83RCt/v1FpRFTedg+iOu", SIG_EKEY_TYPE },
		/* a blob with a 31-byte key */
		{ "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAH1UDLsK+6HNwIiJyTplsPAS4"
		  "83RCt/v1FpRFTedg+iM=", SIG_EKEY_LEN },
		{ "hello world", SIG_EKEY_FORMAT },
	};
	uint8_t pk[32], pk2[32];
	char b64[64], line[SIG_PUBKEY_LINE_SIZE + 8];
	enum sig_error e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		e = SIG_OK;
		if (sig_pubkey_parse(bad[i].text, pk, &e) != -1 ||
		    e != bad[i].err)
			fail_msg("key '%s': got %d (%s), want %d", bad[i].text,
			    (int)e, sig_strerror(e), (int)bad[i].err);
	}

	/* Raw base64 of 32 bytes, padded or not, with blanks around. */
	pubkey_of("alice", pk);
	sodium_bin2base64(b64, sizeof b64, pk, 32,
	    sodium_base64_VARIANT_ORIGINAL);
	snprintf(line, sizeof line, "  %s \n", b64);
	assert_int_equal(sig_pubkey_parse(line, pk2, &e), 0);
	assert_memory_equal(pk, pk2, 32);
	b64[43] = '\0';
	assert_int_equal(sig_pubkey_parse(b64, pk2, &e), 0);
	assert_memory_equal(pk, pk2, 32);
}

/* --- secret keys ---------------------------------------------------- */

/* A key file for signing: secret, locked (its public half read) or
 * public; other key types refused. */
static void
test_keyfile(void **state)
{
	static const uint8_t zero[64];
	enum sig_keyfile_kind kind;
	uint8_t pk[32], sk[64], want[32];
	char path[1024];
	enum sig_error e;

	(void)state;
	pubkey_of("alice", want);
	assert_int_equal(sig_keyfile_read(test_data_path(path, sizeof path,
	    "sig/alice"), &kind, sk, pk, &e), 0);
	assert_int_equal(kind, SIG_KEYFILE_SECRET);
	assert_memory_equal(pk, want, 32);
	assert_memory_equal(sk + 32, want, 32);
	assert_int_equal(sig_keyfile_read(test_data_path(path, sizeof path,
	    "sig/alice.pub"), &kind, sk, pk, &e), 0);
	assert_int_equal(kind, SIG_KEYFILE_PUBLIC);
	assert_memory_equal(pk, want, 32);
	assert_memory_equal(sk, zero, 64);

	pubkey_of("enc", want);
	assert_int_equal(sig_keyfile_read(test_data_path(path, sizeof path,
	    "sig/enc"), &kind, sk, pk, &e), 0);
	assert_int_equal(kind, SIG_KEYFILE_LOCKED);
	assert_memory_equal(pk, want, 32);
	assert_memory_equal(sk, zero, 64);

	assert_int_equal(sig_keyfile_read(test_data_path(path, sizeof path,
	    "sig/ecdsa"), &kind, sk, pk, &e), -1);
	assert_int_equal(e, SIG_EKEY_TYPE);
	assert_int_equal(sig_keyfile_read(test_data_path(path, sizeof path,
	    "sig/ecdsa.pub"), &kind, sk, pk, &e), -1);
	assert_int_equal(e, SIG_EKEY_TYPE);
	assert_int_equal(sig_keyfile_read(test_data_path(path, sizeof path,
	    "sig/statement.txt"), &kind, sk, pk, &e), -1);
	assert_int_equal(e, SIG_EKEY_FORMAT);
	/* sig_seckey_read() still wants the secret itself. */
	assert_int_equal(sig_seckey_read(test_data_path(path, sizeof path,
	    "sig/alice.pub"), sk, &e), -1);
	assert_int_equal(e, SIG_EKEY_FORMAT);
}

/* ssh-keygen's private key reads and matches its public key. */
static void
test_seckey_openssh(void **state)
{
	uint8_t pk[32], sk[64], sig[64];
	char path[1024];
	enum sig_error e;

	(void)state;
	pubkey_of("alice", pk);
	assert_int_equal(sig_seckey_read(test_data_path(path, sizeof path,
	    "sig/alice"), sk, &e), 0);
	assert_memory_equal(sk + 32, pk, 32);
	assert_int_equal(sig_sign((const uint8_t *)"x", 1, sk, sig), 0);
	assert_int_equal(sig_verify((const uint8_t *)"x", 1, sig, pk), 0);

	assert_int_equal(sig_seckey_read(test_data_path(path, sizeof path,
	    "sig/enc"), sk, &e), -1);
	assert_int_equal(e, SIG_EKEY_ENCRYPTED);
	assert_int_equal(sig_seckey_read(test_data_path(path, sizeof path,
	    "sig/ecdsa"), sk, &e), -1);
	assert_int_equal(e, SIG_EKEY_TYPE);
	assert_int_equal(sig_seckey_read(test_data_path(path, sizeof path,
	    "sig/no-such-key"), sk, &e), -1);
	assert_int_equal(e, SIG_EIO);
	assert_int_equal(errno, ENOENT);
}

/* Re-armor a modified openssh-key-v1 blob. */
static char *
rearmor(const uint8_t *bin, size_t n)
{
	char *b64, *out;
	size_t cap = sodium_base64_ENCODED_LEN(n,
	    sodium_base64_VARIANT_ORIGINAL);

	b64 = malloc(cap);
	assert_non_null(b64);
	sodium_bin2base64(b64, cap, bin, n, sodium_base64_VARIANT_ORIGINAL);
	out = malloc(cap + 128);
	assert_non_null(out);
	snprintf(out, cap + 128, "-----BEGIN OPENSSH PRIVATE KEY-----\n%s\n"
	    "-----END OPENSSH PRIVATE KEY-----\n", b64);
	free(b64);
	return out;
}

/* Every secret key error, and raw base64 secrets. */
static void
test_seckey_errors(void **state)
{
	uint8_t sk[64], sk2[64], bin[1024];
	char *text, *b64, *armor, raw[128];
	size_t len, binlen, i, n;
	enum sig_error e;

	(void)state;
	/* Decode alice's key, then damage copies of it. */
	text = sigdata("alice", &len);
	b64 = malloc(len + 1);
	assert_non_null(b64);
	for (i = n = 0; i < len; i++) {
		if (text[i] == '-') {
			while (i < len && text[i] != '\n')
				i++;
			continue;
		}
		if (text[i] != '\n')
			b64[n++] = text[i];
	}
	assert_int_equal(sodium_base642bin(bin, sizeof bin, b64, n, NULL,
	    &binlen, NULL, sodium_base64_VARIANT_ORIGINAL), 0);
	assert_int_equal(sig_seckey_parse(text, len, sk, &e), 0);

	/* Re-armored unchanged: still good. */
	armor = rearmor(bin, binlen);
	assert_int_equal(sig_seckey_parse(armor, strlen(armor), sk2, &e), 0);
	assert_memory_equal(sk, sk2, 64);
	free(armor);

	/* The second check word (after magic 15, "none" x2, "" , nkeys,
	 * pubkey string 4+51, private length 4): offset 15+8+8+4+4+55+4+4. */
	bin[102] ^= 0xff;
	armor = rearmor(bin, binlen);
	assert_int_equal(sig_seckey_parse(armor, strlen(armor), sk2, &e), -1);
	assert_int_equal(e, SIG_EKEY_CORRUPT);
	free(armor);
	bin[102] ^= 0xff;

	/* A truncated blob. */
	armor = rearmor(bin, binlen - 9);
	assert_int_equal(sig_seckey_parse(armor, strlen(armor), sk2, &e), -1);
	assert_int_equal(e, SIG_EKEY_FORMAT);
	free(armor);

	/* Missing END line. */
	armor = rearmor(bin, binlen);
	*strstr(armor, "-----END") = '\0';
	assert_int_equal(sig_seckey_parse(armor, strlen(armor), sk2, &e), -1);
	assert_int_equal(e, SIG_EKEY_FORMAT);
	free(armor);

	/* PEM keys of other kinds. */
	snprintf(raw, sizeof raw, "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n"
	    "-----END RSA PRIVATE KEY-----\n");
	assert_int_equal(sig_seckey_parse(raw, strlen(raw), sk2, &e), -1);
	assert_int_equal(e, SIG_EKEY_TYPE);

	/* A public key line is not a secret key. */
	free(text);
	text = sigdata("alice.pub", &len);
	assert_int_equal(sig_seckey_parse(text, len, sk2, &e), -1);
	assert_int_equal(e, SIG_EKEY_FORMAT);

	/* Raw base64: 64-byte sk, 32-byte seed, wrong sizes, mismatch. */
	sodium_bin2base64(raw, sizeof raw, sk, 64,
	    sodium_base64_VARIANT_ORIGINAL);
	assert_int_equal(sig_seckey_parse(raw, strlen(raw), sk2, &e), 0);
	assert_memory_equal(sk, sk2, 64);
	sodium_bin2base64(raw, sizeof raw, sk, 32,
	    sodium_base64_VARIANT_ORIGINAL);
	strcat(raw, "\n");
	assert_int_equal(sig_seckey_parse(raw, strlen(raw), sk2, &e), 0);
	assert_memory_equal(sk, sk2, 64);
	sodium_bin2base64(raw, sizeof raw, sk, 40,
	    sodium_base64_VARIANT_ORIGINAL);
	assert_int_equal(sig_seckey_parse(raw, strlen(raw), sk2, &e), -1);
	assert_int_equal(e, SIG_EKEY_LEN);
	memcpy(sk2, sk, 64);
	sk2[40] ^= 1;
	sodium_bin2base64(raw, sizeof raw, sk2, 64,
	    sodium_base64_VARIANT_ORIGINAL);
	assert_int_equal(sig_seckey_parse(raw, strlen(raw), sk2, &e) == 0 ? 0 :
	    (int)e, SIG_EKEY_CORRUPT);
	assert_int_equal(sig_seckey_parse("a*b", 3, sk2, &e), -1);
	assert_int_equal(e, SIG_EBASE64);
	free(b64);
	free(text);
}

/* Make a temporary directory for a test. */
static void
tmpdir(char *buf, size_t size)
{
	test_mkdtemp(buf, size, "test_sig");
}

/* Remove a temporary directory and the files the tests put there. */
static void
rmtmp(const char *dir)
{
	char cmd[1200];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Write a whole file. */
static void
write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* A written key file has mode 0600, reads back, and is not overwritten. */
static void
test_seckey_write(void **state)
{
	uint8_t pk[32], sk[64], sk2[64], pk2[32];
	char dir[512], path[600], *pub;
	struct stat sb;
	enum sig_error e;
	FILE *f;
	char line[256];

	(void)state;
	tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/id_ed25519", dir);
	assert_int_equal(sig_keypair(pk, sk), 0);
	assert_int_equal(sig_seckey_write(path, sk, "carol@example.org", &e), 0);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	assert_int_equal(sig_seckey_read(path, sk2, &e), 0);
	assert_memory_equal(sk, sk2, 64);

	pub = cat(path, ".pub");
	f = fopen(pub, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof line, f));
	fclose(f);
	assert_int_equal(sig_pubkey_parse(line, pk2, &e), 0);
	assert_memory_equal(pk, pk2, 32);
	assert_non_null(strstr(line, " carol@example.org\n"));

	assert_int_equal(sig_seckey_write(path, sk, NULL, &e), -1);
	assert_int_equal(e, SIG_EEXIST);
	assert_int_equal(sig_seckey_write(path, sk, "two\nlines", &e), -1);
	assert_int_equal(e, SIG_EKEY_FORMAT);
	free(pub);
	rmtmp(dir);
}

/* --- the real ssh-keygen --------------------------------------------- */

/* Path of ssh-keygen, or NULL; skips when CORRCHESS_NO_SSH_KEYGEN=1 and
 * fails when ssh-keygen is missing otherwise. */
static void
need_ssh_keygen(void)
{
	const char *no = getenv("CORRCHESS_NO_SSH_KEYGEN");

	if (no != NULL && strcmp(no, "1") == 0)
		skip();
	if (system("command -v ssh-keygen >/dev/null 2>&1") != 0)
		fail_msg("ssh-keygen not found: install openssh-client, or set "
		    "CORRCHESS_NO_SSH_KEYGEN=1 to skip the live OpenSSH tests");
}

/* Run a shell command; return its exit status. */
static int
run(const char *cmd)
{
	int st = system(cmd);

	assert_true(st != -1 && WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* ssh-keygen signs with a key file we wrote; we verify its signature. */
static void
test_live_sshkeygen_signs_with_our_key(void **state)
{
	uint8_t pk[32], sk[64], pk2[32];
	char dir[512], key[600], msg[600], cmd[2048], *sigtext, *pubout;
	struct sig_sshsig ss;
	enum sig_error e;
	size_t len;
	FILE *f;

	(void)state;
	need_ssh_keygen();
	tmpdir(dir, sizeof dir);
	snprintf(key, sizeof key, "%s/key", dir);
	snprintf(msg, sizeof msg, "%s/statement", dir);
	assert_int_equal(sig_keypair(pk, sk), 0);
	assert_int_equal(sig_seckey_write(key, sk, "ours", &e), 0);
	write_file(msg, canon_text, strlen(canon_text));

	/* ssh-keygen reads the key: same public key. */
	snprintf(cmd, sizeof cmd, "ssh-keygen -y -f '%s' > '%s.y'", key, key);
	assert_int_equal(run(cmd), 0);
	snprintf(cmd, sizeof cmd, "%s.y", key);
	f = fopen(cmd, "r");
	assert_non_null(f);
	pubout = calloc(1, 512);
	assert_non_null(fgets(pubout, 512, f));
	fclose(f);
	assert_int_equal(sig_pubkey_parse(pubout, pk2, &e), 0);
	assert_memory_equal(pk, pk2, 32);
	free(pubout);

	/* ssh-keygen signs with it; the signature verifies here. */
	snprintf(cmd, sizeof cmd, "ssh-keygen -q -Y sign -n corrchess -f '%s' "
	    "'%s' </dev/null", key, msg);
	assert_int_equal(run(cmd), 0);
	snprintf(cmd, sizeof cmd, "%s.sig", msg);
	f = fopen(cmd, "rb");
	assert_non_null(f);
	sigtext = calloc(1, 4096);
	len = fread(sigtext, 1, 4095, f);
	fclose(f);
	assert_int_equal(sig_sshsig_parse_armor(sigtext, len, &ss, NULL, &e), 0);
	assert_memory_equal(ss.pubkey, pk, 32);
	assert_int_equal(sig_sshsig_verify(&ss, (const uint8_t *)canon_text,
	    strlen(canon_text), SIG_NAMESPACE, &e), 0);
	free(sigtext);
	rmtmp(dir);
}

/* ssh-keygen -Y verify accepts our SSHSIG and refuses it for other text. */
static void
test_live_sshkeygen_verifies_our_sig(void **state)
{
	uint8_t pk[32], sk[64];
	char dir[512], path[600], cmd[3072], armor[SIG_SSHSIG_ARMOR_SIZE];
	char line[SIG_PUBKEY_LINE_SIZE], signers[128];
	enum sig_error e;

	(void)state;
	need_ssh_keygen();
	tmpdir(dir, sizeof dir);
	assert_int_equal(sig_keypair(pk, sk), 0);
	assert_int_equal(sig_sshsig_sign((const uint8_t *)canon_text,
	    strlen(canon_text), sk, SIG_NAMESPACE, armor, sizeof armor, &e), 0);
	snprintf(path, sizeof path, "%s/statement.sig", dir);
	write_file(path, armor, strlen(armor));
	snprintf(path, sizeof path, "%s/statement", dir);
	write_file(path, canon_text, strlen(canon_text));
	snprintf(path, sizeof path, "%s/other", dir);
	write_file(path, canon_text, strlen(canon_text) - 2);
	assert_int_equal(sig_pubkey_format(pk, NULL, line, sizeof line), 0);
	snprintf(path, sizeof path, "%s/allowed_signers", dir);
	snprintf(signers, sizeof signers, "alice ");
	{
		char *s = cat(signers, line);
		char *s2 = cat(s, "\n");

		write_file(path, s2, strlen(s2));
		free(s);
		free(s2);
	}

	snprintf(cmd, sizeof cmd, "cd '%s' && ssh-keygen -Y verify -f "
	    "allowed_signers -I alice -n corrchess -s statement.sig "
	    "< statement >/dev/null 2>&1", dir);
	assert_int_equal(run(cmd), 0);
	snprintf(cmd, sizeof cmd, "cd '%s' && ssh-keygen -Y verify -f "
	    "allowed_signers -I alice -n corrchess -s statement.sig "
	    "< other >/dev/null 2>&1", dir);
	assert_int_not_equal(run(cmd), 0);
	snprintf(cmd, sizeof cmd, "cd '%s' && ssh-keygen -Y verify -f "
	    "allowed_signers -I alice -n other -s statement.sig "
	    "< statement >/dev/null 2>&1", dir);
	assert_int_not_equal(run(cmd), 0);
	rmtmp(dir);
}

/* --- SSHSIG from committed ssh-keygen output -------------------------- */

/* Parse statement.txt followed by the signature file NAME. */
static void
parse_with_sig(const char *name, struct sig_statement *st,
    struct sig_signature *sg)
{
	char *stmt, *sig, *text;
	enum sig_error e;

	stmt = sigdata("statement.txt", NULL);
	sig = sigdata(name, NULL);
	text = cat(stmt, sig);
	if (sig_statement_parse(text, strlen(text), st, sg, &e) != 0)
		fail_msg("%s: %s", name, sig_strerror(e));
	assert_int_equal(sg->form, SIG_FORM_SSHSIG);
	assert_int_equal(st->canon_len, strlen(stmt));
	assert_memory_equal(st->canon, stmt, st->canon_len);
	free(text);
	free(sig);
	free(stmt);
}

/* ssh-keygen's signatures verify, and each wrong one fails its own way. */
static void
test_sshsig_keygen_files(void **state)
{
	uint8_t keys[2][32], bob[32];
	struct sig_statement st;
	struct sig_signature sg;
	enum sig_error e;
	size_t which = 99;

	(void)state;
	pubkey_of("alice", keys[0]);
	pubkey_of("bob", bob);

	parse_with_sig("statement.sig", &st, &sg);
	assert_int_equal(sg.ssh.hash, SIG_SSHSIG_SHA512);
	assert_memory_equal(sg.ssh.pubkey, keys[0], 32);
	assert_int_equal(sig_signature_verify(&st, &sg, keys, 1, &which, &e), 0);
	assert_int_equal(which, 0);

	parse_with_sig("statement.sha256.sig", &st, &sg);
	assert_int_equal(sg.ssh.hash, SIG_SSHSIG_SHA256);
	assert_int_equal(sig_signature_verify(&st, &sg, keys, 1, NULL, &e), 0);

	parse_with_sig("statement.other-ns.sig", &st, &sg);
	assert_int_equal(sig_signature_verify(&st, &sg, keys, 1, NULL, &e), -1);
	assert_int_equal(e, SIG_ENAMESPACE);
	/* ...though it is a good signature in its own namespace. */
	assert_int_equal(sig_sshsig_verify(&sg.ssh, st.canon, st.canon_len,
	    "other", &e), 0);

	parse_with_sig("statement.bob.sig", &st, &sg);
	assert_memory_equal(sg.ssh.pubkey, bob, 32);
	assert_int_equal(sig_signature_verify(&st, &sg, keys, 1, NULL, &e), -1);
	assert_int_equal(e, SIG_EKEY_MISMATCH);
	memcpy(keys[1], bob, 32);
	assert_int_equal(sig_signature_verify(&st, &sg, keys, 2, &which, &e), 0);
	assert_int_equal(which, 1);
}

/* A changed statement or a changed signature fails. */
static void
test_sshsig_tampered(void **state)
{
	uint8_t keys[1][32];
	struct sig_statement st;
	struct sig_signature sg, sg2;
	enum sig_error e;
	size_t i;

	(void)state;
	pubkey_of("alice", keys[0]);
	parse_with_sig("statement.sig", &st, &sg);

	st.canon[st.canon_len - 2] = '4';	/* Nf3 -> Nf4 */
	assert_int_equal(sig_signature_verify(&st, &sg, keys, 1, NULL, &e), -1);
	assert_int_equal(e, SIG_EBADSIG);
	st.canon[st.canon_len - 2] = '3';
	assert_int_equal(sig_signature_verify(&st, &sg, keys, 1, NULL, &e), 0);

	/* Every bit of the Ed25519 signature matters. */
	for (i = 0; i < 64 * 8; i += 7) {
		sg2 = sg;
		sg2.ssh.sig[i / 8] ^= (uint8_t)(1 << (i % 8));
		assert_int_equal(sig_signature_verify(&st, &sg2, keys, 1, NULL,
		    &e), -1);
		assert_int_equal(e, SIG_EBADSIG);
	}
	/* The hash algorithm is signed too. */
	sg2 = sg;
	sg2.ssh.hash = SIG_SSHSIG_SHA256;
	assert_int_equal(sig_signature_verify(&st, &sg2, keys, 1, NULL, &e), -1);
	assert_int_equal(e, SIG_EBADSIG);
}

/* Our SSHSIG output parses back, verifies, and wraps at 70 columns. */
static void
test_sshsig_ours(void **state)
{
	uint8_t pk[32], sk[64];
	char armor[SIG_SSHSIG_ARMOR_SIZE], *l;
	struct sig_sshsig ss;
	enum sig_error e;
	size_t used;

	(void)state;
	assert_int_equal(sig_keypair(pk, sk), 0);
	assert_int_equal(sig_sshsig_sign((const uint8_t *)canon_text,
	    strlen(canon_text), sk, SIG_NAMESPACE, armor, sizeof armor, &e), 0);
	assert_int_equal(strncmp(armor, "-----BEGIN SSH SIGNATURE-----\n", 30),
	    0);
	for (l = armor; *l != '\0'; l = strchr(l, '\n') + 1)
		assert_true(strcspn(l, "\n") <= 70);
	assert_int_equal(sig_sshsig_parse_armor(armor, strlen(armor), &ss,
	    &used, &e), 0);
	assert_int_equal(used, strlen(armor));
	assert_int_equal(ss.hash, SIG_SSHSIG_SHA512);
	assert_memory_equal(ss.pubkey, pk, 32);
	assert_int_equal(sig_sshsig_verify(&ss, (const uint8_t *)canon_text,
	    strlen(canon_text), SIG_NAMESPACE, &e), 0);
	assert_int_equal(sig_sshsig_verify(&ss, (const uint8_t *)canon_text,
	    strlen(canon_text) - 1, SIG_NAMESPACE, &e), -1);
	assert_int_equal(e, SIG_EBADSIG);
	assert_int_equal(sig_sshsig_sign((const uint8_t *)canon_text,
	    strlen(canon_text), sk, SIG_NAMESPACE, armor, 100, &e), -1);
	assert_int_equal(e, SIG_ESPACE);
}

/* Build an SSHSIG blob with chosen parts (NULL: the good one). */
static size_t
sshsig_blob(uint8_t *out, size_t max, uint32_t version, const char *keytype,
    size_t keylen, const char *ns, const char *hash, const char *sigtype,
    size_t siglen)
{
	uint8_t *p = out;

#define PUT32(v) do { uint32_t v_ = (v); *p++ = v_ >> 24; *p++ = v_ >> 16; \
	*p++ = v_ >> 8; *p++ = v_; } while (0)
#define PUTSTR(s, n) do { PUT32(n); memcpy(p, (s), (n)); p += (n); } while (0)
	static const uint8_t zero[128];

	assert_true(max >= 400);
	memcpy(p, "SSHSIG", 6);
	p += 6;
	PUT32(version);
	PUT32(4 + strlen(keytype) + 4 + keylen);
	PUTSTR(keytype, strlen(keytype));
	PUTSTR(zero, keylen);
	PUTSTR(ns, strlen(ns));
	PUTSTR("", 0);
	PUTSTR(hash, strlen(hash));
	PUT32(4 + strlen(sigtype) + 4 + siglen);
	PUTSTR(sigtype, strlen(sigtype));
	PUTSTR(zero, siglen);
#undef PUT32
#undef PUTSTR
	return (size_t)(p - out);
}

/* An SSHSIG blob with these parts must be refused with `want`. */
static void
sshsig_refused(uint32_t version, const char *keytype, size_t keylen,
    const char *hash, const char *sigtype, size_t siglen, enum sig_error want)
{
	uint8_t		blob[512];
	struct sig_sshsig ss;
	enum sig_error	e;
	size_t		n;

	n = sshsig_blob(blob, sizeof blob, version, keytype, keylen,
	    "corrchess", hash, sigtype, siglen);
	assert_int_equal(sig_sshsig_parse(blob, n, &ss, &e), -1);
	assert_int_equal(e, want);
}

/* Each malformed SSHSIG gets its own error; no truncation is read past. */
static void
test_sshsig_malformed(void **state)
{
	uint8_t blob[512];
	struct sig_sshsig ss;
	struct sig_statement st;
	struct sig_signature sg;
	enum sig_error e;
	char *good, *text;
	size_t n, i, len;
	char b64[800], armor[1024];

	(void)state;
	n = sshsig_blob(blob, sizeof blob, 1, "ssh-ed25519", 32, "corrchess",
	    "sha512", "ssh-ed25519", 64);
	assert_int_equal(sig_sshsig_parse(blob, n, &ss, &e), 0);
	/* Every truncation and any extra byte are refused. */
	for (i = 0; i < n; i++) {
		assert_int_equal(sig_sshsig_parse(blob, i, &ss, &e), -1);
		assert_true(e == SIG_ESSHSIG || e == SIG_EKEY_FORMAT ||
		    e == SIG_EKEY_LEN);
	}
	assert_int_equal(sig_sshsig_parse(blob, n + 1, &ss, &e), -1);
	assert_int_equal(e, SIG_ESSHSIG);
	assert_int_equal(sig_sshsig_parse(blob, SIG_SSHSIG_MAX + 1, &ss, &e),
	    -1);
	assert_int_equal(e, SIG_ESSHSIG);

	sshsig_refused(2, "ssh-ed25519", 32, "sha512", "ssh-ed25519",
	    64, SIG_ESSHSIG_VERSION);
	sshsig_refused(1, "ssh-ed25519", 32, "md5", "ssh-ed25519",
	    64, SIG_ESSHSIG_HASH);
	sshsig_refused(1, "ssh-rsa", 32, "sha512", "ssh-ed25519",
	    64, SIG_EKEY_TYPE);
	sshsig_refused(1, "ssh-ed25519", 33, "sha512", "ssh-ed25519",
	    64, SIG_EKEY_LEN);
	sshsig_refused(1, "ssh-ed25519", 32, "sha512", "rsa-sha2-512",
	    64, SIG_EKEY_TYPE);
	n = sshsig_blob(blob, sizeof blob, 1, "ssh-ed25519", 32, "corrchess",
	    "sha512", "ssh-ed25519", 63);
	assert_int_equal(sig_sshsig_parse(blob, n, &ss, &e), -1);
	assert_int_equal(e, SIG_ESSHSIG);
	memcpy(blob, "SSHSIH", 6);
	assert_int_equal(sig_sshsig_parse(blob, n, &ss, &e), -1);
	assert_int_equal(e, SIG_ESSHSIG);

	/* Through the statement parser: a version 2 blob, armored. */
	n = sshsig_blob(blob, sizeof blob, 2, "ssh-ed25519", 32, "corrchess",
	    "sha512", "ssh-ed25519", 64);
	sodium_bin2base64(b64, sizeof b64, blob, n,
	    sodium_base64_VARIANT_ORIGINAL);
	snprintf(armor, sizeof armor, "\n-----BEGIN SSH SIGNATURE-----\n%s\n"
	    "-----END SSH SIGNATURE-----\n", b64);
	text = cat(canon_text, armor);
	assert_int_equal(sig_statement_parse(text, strlen(text), &st, &sg, &e),
	    -1);
	assert_int_equal(e, SIG_ESSHSIG_VERSION);
	free(text);

	/* Armor errors. */
	good = sigdata("statement.sig", &len);
	assert_int_equal(sig_sshsig_parse_armor(good, len, &ss, NULL, &e), 0);
	good[40] = '*';
	assert_int_equal(sig_sshsig_parse_armor(good, len, &ss, NULL, &e), -1);
	assert_int_equal(e, SIG_EBASE64);
	free(good);
	good = sigdata("statement.sig", &len);
	*strstr(good, "-----END") = '\0';
	assert_int_equal(sig_sshsig_parse_armor(good, strlen(good), &ss, NULL,
	    &e), -1);
	assert_int_equal(e, SIG_EARMOR);
	assert_int_equal(sig_sshsig_parse_armor("hello", 5, &ss, NULL, &e), -1);
	assert_int_equal(e, SIG_ENOSIG);
	free(good);
	/* A base64 body too long for any SSHSIG. */
	{
		char *big = malloc(4000);

		assert_non_null(big);
		strcpy(big, "-----BEGIN SSH SIGNATURE-----\n");
		for (i = 0; i < 40; i++)
			strcat(big, "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFB"
			    "QUFBQUFBQUFBQUFBQUFB\n");
		strcat(big, "-----END SSH SIGNATURE-----\n");
		assert_int_equal(sig_sshsig_parse_armor(big, strlen(big), &ss,
		    NULL, &e), -1);
		assert_int_equal(e, SIG_ESSHSIG);
		free(big);
	}
}

/* --- statements ----------------------------------------------------- */

/* A statement inside other text, with CRLF and trailing blanks, parses to
 * the canonical bytes and its raw signature verifies. */
static void
test_statement_in_text(void **state)
{
	uint8_t pk[32], sk[64], sig[64], keys[1][32];
	char line[SIG_RAWSIG_LINE_SIZE], text[1024];
	struct sig_statement st;
	struct sig_signature sg;
	enum sig_error e;

	(void)state;
	assert_int_equal(sig_keypair(pk, sk), 0);
	memcpy(keys[0], pk, 32);
	assert_int_equal(sig_sign((const uint8_t *)canon_text,
	    strlen(canon_text), sk, sig), 0);
	assert_int_equal(sig_rawsig_format(sig, line, sizeof line), 0);
	assert_int_equal(strlen(line), SIG_RAWSIG_LINE_SIZE - 1);
	line[strlen(line) - 1] = '\0';

	snprintf(text, sizeof text,
	    "Hello Bob,\r\n\r\nmy move:\r\n\r\n"
	    "corrchess-v1  \r\n"
	    "game: 42\t\r\n"
	    "ply: 16\r\n"
	    "player: alice \r\n"
	    "action: move Nf3\r\n"
	    "\r\n \r\n"
	    "%s   \r\n"
	    "\r\n-- \r\nAlice\r\n", line);
	assert_int_equal(sig_statement_parse(text, strlen(text), &st, &sg, &e),
	    0);
	assert_int_equal(st.game, 42);
	assert_int_equal(st.ply, 16);
	assert_string_equal(st.player, "alice");
	assert_int_equal(st.action.kind, SIG_ACT_MOVE);
	assert_string_equal(st.action.move, "Nf3");
	assert_int_equal(st.canon_len, strlen(canon_text));
	assert_memory_equal(st.canon, canon_text, st.canon_len);
	assert_int_equal(sg.form, SIG_FORM_RAW);
	assert_memory_equal(sg.raw, sig, 64);
	assert_int_equal(sig_signature_verify(&st, &sg, keys, 1, NULL, &e), 0);

	/* Old Mac line ends (CR) and no final line end at all. */
	snprintf(text, sizeof text, "corrchess-v1\rgame: 42\rply: 16\r"
	    "player: alice\raction: move Nf3\r%s", line);
	assert_int_equal(sig_statement_parse(text, strlen(text), &st, &sg, &e),
	    0);
	assert_int_equal(sig_signature_verify(&st, &sg, keys, 1, NULL, &e), 0);

	/* Without a signature wanted, the statement alone is enough. */
	assert_int_equal(sig_statement_parse(canon_text, strlen(canon_text),
	    &st, NULL, &e), 0);
	assert_memory_equal(st.canon, canon_text, st.canon_len);
}

/* Raw signatures: tampering and the wrong key fail; several keys work. */
static void
test_rawsig_tampered(void **state)
{
	uint8_t pk[32], sk[64], keys[3][32], junk[64];
	char buf[SIG_SIGNED_SIZE];
	struct sig_statement st;
	struct sig_signature sg, sg2;
	enum sig_error e;
	size_t which;
	char *p;

	(void)state;
	assert_int_equal(sig_keypair(keys[0], junk), 0);
	assert_int_equal(sig_keypair(keys[1], junk), 0);
	assert_int_equal(sig_keypair(pk, sk), 0);
	memcpy(keys[2], pk, 32);
	assert_int_equal(sig_statement_parse(canon_text, strlen(canon_text),
	    &st, NULL, &e), 0);
	assert_int_equal(sig_statement_sign(&st, sk, SIG_FORM_RAW, buf,
	    sizeof buf, &e), 0);
	assert_int_equal(sig_statement_parse(buf, strlen(buf), &st, &sg, &e), 0);
	assert_int_equal(sig_signature_verify(&st, &sg, keys, 3, &which, &e), 0);
	assert_int_equal(which, 2);
	assert_int_equal(sig_signature_verify(&st, &sg, keys, 2, &which, &e),
	    -1);
	assert_int_equal(e, SIG_EBADSIG);

	/* Another ply in the text: the signature no longer matches. */
	p = strstr(buf, "ply: 16");
	p[6] = '7';
	assert_int_equal(sig_statement_parse(buf, strlen(buf), &st, &sg, &e), 0);
	assert_int_equal(st.ply, 17);
	assert_int_equal(sig_signature_verify(&st, &sg, keys, 3, NULL, &e), -1);
	assert_int_equal(e, SIG_EBADSIG);
	p[6] = '6';

	assert_int_equal(sig_statement_parse(buf, strlen(buf), &st, &sg, &e), 0);
	sg2 = sg;
	sg2.raw[63] ^= 0x10;
	assert_int_equal(sig_signature_verify(&st, &sg2, keys, 3, NULL, &e), -1);
	assert_int_equal(e, SIG_EBADSIG);
	/* A signature over the statement without its final LF fails. */
	assert_int_equal(sig_sign(st.canon, st.canon_len - 1, sk, sg2.raw), 0);
	assert_int_equal(sig_signature_verify(&st, &sg2, keys, 3, NULL, &e), -1);
	assert_int_equal(e, SIG_EBADSIG);
	sg2.form = SIG_FORM_NONE;
	assert_int_equal(sig_signature_verify(&st, &sg2, keys, 3, NULL, &e), -1);
	assert_int_equal(e, SIG_ENOSIG);
}

/* sig_statement_sign's SSHSIG form verifies and ssh-keygen's form parses. */
static void
test_statement_sign_sshsig(void **state)
{
	uint8_t pk[32], sk[64], keys[1][32];
	char buf[SIG_SIGNED_SIZE];
	struct sig_statement st;
	struct sig_signature sg;
	enum sig_error e;

	(void)state;
	assert_int_equal(sig_keypair(pk, sk), 0);
	memcpy(keys[0], pk, 32);
	memset(&st, 0, sizeof st);
	st.game = 7;
	st.ply = 0;
	strcpy(st.player, "bob");
	st.action.kind = SIG_ACT_RESIGN;
	assert_int_equal(sig_statement_build(&st, &e), 0);
	assert_int_equal(sig_statement_sign(&st, sk, SIG_FORM_SSHSIG, buf,
	    sizeof buf, &e), 0);
	assert_int_equal(strncmp(buf, "corrchess-v1\ngame: 7\nply: 0\n"
	    "player: bob\naction: resign\n-----BEGIN SSH SIGNATURE-----\n", 85),
	    0);
	assert_int_equal(sig_statement_parse(buf, strlen(buf), &st, &sg, &e), 0);
	assert_int_equal(sg.form, SIG_FORM_SSHSIG);
	assert_int_equal(sig_signature_verify(&st, &sg, keys, 1, NULL, &e), 0);
	assert_int_equal(sig_statement_sign(&st, sk, SIG_FORM_SSHSIG, buf,
	    200, &e), -1);
	assert_int_equal(e, SIG_ESPACE);
}

/* Signing in two steps (the bytes, then the text) is signing in one. */
static void
test_statement_two_steps(void **state)
{
	static const enum sig_form forms[] = { SIG_FORM_RAW, SIG_FORM_SSHSIG };
	uint8_t pk[32], sk[64], keys[1][32], tbs[SIG_TBS_MAX], sig[64];
	char one[SIG_SIGNED_SIZE], two[SIG_SIGNED_SIZE];
	struct sig_statement st;
	struct sig_signature sg;
	enum sig_error e;
	size_t i, n;

	(void)state;
	assert_int_equal(sig_keypair(pk, sk), 0);
	memcpy(keys[0], pk, 32);
	assert_int_equal(sig_statement_parse(canon_text, strlen(canon_text),
	    &st, NULL, &e), 0);
	for (i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		assert_int_equal(sig_statement_tbs(&st, forms[i], tbs,
		    sizeof tbs, &n, &e), 0);
		assert_int_equal(sig_sign(tbs, n, sk, sig), 0);
		assert_int_equal(sig_statement_signed(&st, forms[i], pk, sig,
		    two, sizeof two, &e), 0);
		assert_int_equal(sig_statement_sign(&st, sk, forms[i], one,
		    sizeof one, &e), 0);
		assert_string_equal(one, two);
		assert_int_equal(sig_statement_parse(two, strlen(two), &st,
		    &sg, &e), 0);
		assert_int_equal(sig_signature_verify(&st, &sg, keys, 1, NULL,
		    &e), 0);
	}
	/* The raw form signs the canonical bytes themselves. */
	assert_int_equal(sig_statement_tbs(&st, SIG_FORM_RAW, tbs, sizeof tbs,
	    &n, &e), 0);
	assert_int_equal(n, strlen(canon_text));
	assert_memory_equal(tbs, canon_text, n);
	/* The SSHSIG form signs the magic, namespace, hash name and hash. */
	assert_int_equal(sig_statement_tbs(&st, SIG_FORM_SSHSIG, tbs,
	    sizeof tbs, &n, &e), 0);
	assert_int_equal(n, 6 + 4 + 9 + 4 + 4 + 6 + 4 + 64);
	assert_memory_equal(tbs, "SSHSIG\0\0\0\x09" "corrchess", 19);
	assert_int_equal(sig_statement_tbs(&st, SIG_FORM_SSHSIG, tbs, 100, &n,
	    &e), -1);
	assert_int_equal(e, SIG_ESPACE);
	assert_int_equal(sig_statement_tbs(&st, SIG_FORM_NONE, tbs,
	    sizeof tbs, &n, &e), -1);
	assert_int_equal(e, SIG_ENOSIG);
}

/* --- ssh-agent's messages ------------------------------------------- */

/* Append a big-endian uint32 to buf at *off. */
static void
put_u32(uint8_t *buf, size_t *off, uint32_t v)
{
	buf[(*off)++] = (uint8_t)(v >> 24);
	buf[(*off)++] = (uint8_t)(v >> 16);
	buf[(*off)++] = (uint8_t)(v >> 8);
	buf[(*off)++] = (uint8_t)v;
}

/* Append an SSH string. */
static void
put_str(uint8_t *buf, size_t *off, const void *p, size_t n)
{
	put_u32(buf, off, (uint32_t)n);
	memcpy(buf + *off, p, n);
	*off += n;
}

/* Append an Ed25519 key blob as a string. */
static void
put_keyblob(uint8_t *buf, size_t *off, const uint8_t pk[32])
{
	uint8_t blob[51];
	size_t n = 0;

	put_str(blob, &n, "ssh-ed25519", 11);
	put_str(blob, &n, pk, 32);
	put_str(buf, off, blob, n);
}

/* The requests are framed as the draft has them. */
static void
test_agent_requests(void **state)
{
	uint8_t req[SIG_AGENT_SIGNREQ_MAX], pk[32], sk[64], want[256];
	enum sig_error e;
	size_t n, w = 0;

	(void)state;
	sig_agent_idreq(req);
	assert_memory_equal(req, "\0\0\0\x01\x0b", 5);

	assert_int_equal(sig_keypair(pk, sk), 0);
	assert_int_equal(sig_agent_signreq(pk, (const uint8_t *)"data", 4, req,
	    sizeof req, &n, &e), 0);
	put_u32(want, &w, 1 + 4 + 51 + 4 + 4 + 4);
	want[w++] = 13;
	put_keyblob(want, &w, pk);
	put_str(want, &w, "data", 4);
	put_u32(want, &w, 0);
	assert_int_equal(n, w);
	assert_memory_equal(req, want, w);
	assert_int_equal(sig_agent_signreq(pk, (const uint8_t *)"data", 4, req,
	    w - 1, &n, &e), -1);
	assert_int_equal(e, SIG_ESPACE);
}

/* The identities answer: found among other keys, every truncation and a
 * lying count refused, FAILURE told apart. */
static void
test_agent_identities(void **state)
{
	uint8_t msg[512], pk[32], other[32], sk[64], hdr[4];
	enum sig_error e;
	size_t n = 0, cut, nkeys;
	int found;

	(void)state;
	assert_int_equal(sig_keypair(pk, sk), 0);
	assert_int_equal(sig_keypair(other, sk), 0);
	msg[n++] = 12;
	put_u32(msg, &n, 3);
	put_str(msg, &n, "\0\0\0\x07ssh-rsa\0\0\0\x01\x03", 16);
	put_str(msg, &n, "rsa key", 7);
	put_keyblob(msg, &n, other);
	put_str(msg, &n, "", 0);
	put_keyblob(msg, &n, pk);
	put_str(msg, &n, "alice@example.org", 17);
	assert_int_equal(sig_agent_idanswer(msg, n, pk, &found, &nkeys, &e), 0);
	assert_int_equal(found, 1);
	assert_int_equal(nkeys, 3);
	msg[n - 21 - 1] ^= 1;	/* the last byte of alice's key */
	assert_int_equal(sig_agent_idanswer(msg, n, pk, &found, &nkeys, &e), 0);
	assert_int_equal(found, 0);
	assert_int_equal(nkeys, 3);
	msg[n - 21 - 1] ^= 1;
	for (cut = 0; cut < n; cut++) {
		assert_int_equal(sig_agent_idanswer(msg, cut, pk, &found,
		    &nkeys, &e), -1);
		assert_int_equal(e, SIG_EAGENT);
		assert_int_equal(found, 0);
	}
	msg[n] = 0;	/* a byte after the last key */
	assert_int_equal(sig_agent_idanswer(msg, n + 1, pk, &found, &nkeys,
	    &e), -1);
	assert_int_equal(e, SIG_EAGENT);
	assert_int_equal(found, 0);
	/* A count of 2^32 - 1 keys in a short message. */
	memcpy(msg + 1, "\xff\xff\xff\xff", 4);
	assert_int_equal(sig_agent_idanswer(msg, n, pk, &found, &nkeys, &e),
	    -1);
	assert_int_equal(e, SIG_EAGENT);
	/* The key, then a second one cut short: not found (as the fuzzer
	 * taught). */
	n = 0;
	msg[n++] = 12;
	put_u32(msg, &n, 2);
	put_keyblob(msg, &n, pk);
	put_str(msg, &n, "", 0);
	put_u32(msg, &n, 51);
	assert_int_equal(sig_agent_idanswer(msg, n, pk, &found, &nkeys, &e),
	    -1);
	assert_int_equal(e, SIG_EAGENT);
	assert_int_equal(found, 0);
	assert_int_equal(nkeys, 0);
	/* No keys at all. */
	assert_int_equal(sig_agent_idanswer((const uint8_t *)"\x0c\0\0\0\0", 5,
	    pk, &found, &nkeys, &e), 0);
	assert_int_equal(found, 0);
	assert_int_equal(nkeys, 0);
	assert_int_equal(sig_agent_idanswer((const uint8_t *)"\x05", 1, pk,
	    &found, &nkeys, &e), -1);
	assert_int_equal(e, SIG_EAGENT_REFUSED);
	assert_int_equal(sig_agent_idanswer((const uint8_t *)"\x0e\0\0\0\0", 5,
	    pk, &found, &nkeys, &e), -1);
	assert_int_equal(e, SIG_EAGENT);

	/* The length before each message. */
	assert_int_equal(sig_agent_msglen((const uint8_t *)"\0\0\x01\0", &n,
	    &e), 0);
	assert_int_equal(n, 256);
	assert_int_equal(sig_agent_msglen((const uint8_t *)"\0\0\0\0", &n, &e),
	    -1);
	assert_int_equal(e, SIG_EAGENT);
	memcpy(hdr, "\0\x04\0\x01", 4);	/* 256 KiB and one */
	assert_int_equal(sig_agent_msglen(hdr, &n, &e), -1);
	assert_int_equal(e, SIG_EAGENT);
}

/* The sign answer: the raw signature, another type, truncations. */
static void
test_agent_signature(void **state)
{
	uint8_t msg[256], inner[128], pk[32], sk[64], sig[64], got[64];
	enum sig_error e;
	size_t n = 0, in = 0, cut;

	(void)state;
	assert_int_equal(sig_keypair(pk, sk), 0);
	assert_int_equal(sig_sign((const uint8_t *)canon_text,
	    strlen(canon_text), sk, sig), 0);
	put_str(inner, &in, "ssh-ed25519", 11);
	put_str(inner, &in, sig, 64);
	msg[n++] = 14;
	put_str(msg, &n, inner, in);
	assert_int_equal(sig_agent_signanswer(msg, n, got, &e), 0);
	assert_memory_equal(got, sig, 64);
	assert_int_equal(sig_verify((const uint8_t *)canon_text,
	    strlen(canon_text), got, pk), 0);
	for (cut = 0; cut < n; cut++) {
		assert_int_equal(sig_agent_signanswer(msg, cut, got, &e), -1);
		assert_int_equal(e, SIG_EAGENT);
	}
	msg[n] = 0;
	assert_int_equal(sig_agent_signanswer(msg, n + 1, got, &e), -1);
	assert_int_equal(e, SIG_EAGENT);
	/* A signature of 63 bytes in a consistent message. */
	n = in = 0;
	put_str(inner, &in, "ssh-ed25519", 11);
	put_str(inner, &in, sig, 63);
	msg[n++] = 14;
	put_str(msg, &n, inner, in);
	assert_int_equal(sig_agent_signanswer(msg, n, got, &e), -1);
	assert_int_equal(e, SIG_EAGENT);
	/* An RSA signature. */
	n = in = 0;
	put_str(inner, &in, "rsa-sha2-512", 12);
	put_str(inner, &in, sig, 64);
	msg[n++] = 14;
	put_str(msg, &n, inner, in);
	assert_int_equal(sig_agent_signanswer(msg, n, got, &e), -1);
	assert_int_equal(e, SIG_EKEY_TYPE);
	assert_int_equal(sig_agent_signanswer((const uint8_t *)"\x05", 1, got,
	    &e), -1);
	assert_int_equal(e, SIG_EAGENT_REFUSED);
	assert_int_equal(sig_agent_signanswer((const uint8_t *)"\x0c\0\0\0\0",
	    5, got, &e), -1);
	assert_int_equal(e, SIG_EAGENT);
}

/* Every action form parses into its kind, move and dates. */
static void
test_actions(void **state)
{
	static const struct {
		const char *text;
		enum sig_action_kind kind;
		const char *move;
	} good[] = {
		{ "move Nf3", SIG_ACT_MOVE, "Nf3" },
		{ "move e2-e4", SIG_ACT_MOVE, "e2-e4" },
		{ "move exd6 e.p.", SIG_ACT_MOVE, "exd6 e.p." },
		{ "move e8=Q+ offer-draw", SIG_ACT_MOVE_OFFER_DRAW, "e8=Q+" },
		{ "move offer-draw", SIG_ACT_MOVE, "offer-draw" },
		{ "accept-draw", SIG_ACT_ACCEPT_DRAW, "" },
		{ "decline-draw", SIG_ACT_DECLINE_DRAW, "" },
		{ "resign", SIG_ACT_RESIGN, "" },
		{ "claim-draw", SIG_ACT_CLAIM_DRAW, "" },
		{ "claim-draw 5254", SIG_ACT_CLAIM_DRAW, "5254" },
		{ "leave 2026-07-01 2026-07-14", SIG_ACT_LEAVE, "" },
		{ "conditional e5 Nf3", SIG_ACT_CONDITIONAL, "" },
		{ "conditional e5 Nf3 Nc6 Bb5; e5 Nf3 Nf6 Nxe5; c5 exd6 e.p.",
		  SIG_ACT_CONDITIONAL, "" },
		{ "cancel-conditional", SIG_ACT_CANCEL_CONDITIONAL, "" },
		{ "show-conditional", SIG_ACT_SHOW_CONDITIONAL, "" },
		{ "abort made by mistake", SIG_ACT_ABORT, "" },
		{ "abort partie cr\xc3\xa9\xc3\xa9\x65 par erreur", SIG_ACT_ABORT,
		  "" },
		{ "adjudicate 1-0 tablebase: mate in 31", SIG_ACT_ADJUDICATE,
		  "" },
		{ "adjudicate 1/2-1/2 dead drawn", SIG_ACT_ADJUDICATE, "" },
		{ "add-key ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOM laptop",
		  SIG_ACT_ADD_KEY, "" },
		{ "revoke-key SHA256:abc", SIG_ACT_REVOKE_KEY, "" },
		{ "set reminders 3d,1d", SIG_ACT_SET, "" },
		{ "email alice@new.example", SIG_ACT_EMAIL, "" },
		{ "confirm-email K7QXM2PD", SIG_ACT_CONFIRM_EMAIL, "" },
		{ "show-settings", SIG_ACT_SHOW_SETTINGS, "" },
	};
	struct sig_action a;
	struct sig_statement st;
	enum sig_error e;
	char text[256], lines[SIG_LINES_MAX + 16];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		if (sig_action_parse(good[i].text, strlen(good[i].text), &a,
		    &e) != 0)
			fail_msg("'%s': %s", good[i].text, sig_strerror(e));
		assert_int_equal(a.kind, good[i].kind);
		assert_string_equal(a.move, good[i].move);

		/* The same action inside a statement, and built back. */
		snprintf(text, sizeof text, "corrchess-v1\ngame: %d\nply: 0\n"
		    "player: a\naction: %s\n",
		    SIG_ACT_IS_PLAYERS(good[i].kind) ? 0 : 1, good[i].text);
		assert_int_equal(sig_statement_parse(text, strlen(text), &st,
		    NULL, &e), 0);
		assert_int_equal(st.action.kind, good[i].kind);
		st.canon_len = 0;
		assert_int_equal(sig_statement_build(&st, &e), 0);
		assert_int_equal(st.canon_len, strlen(text));
		assert_memory_equal(st.canon, text, st.canon_len);
	}
	assert_int_equal(sig_action_parse("leave 2028-02-29 2028-03-01", 27, &a,
	    &e), 0);
	assert_int_equal(a.from.year, 2028);
	assert_int_equal(a.from.month, 2);
	assert_int_equal(a.from.day, 29);
	assert_int_equal(a.to.month, 3);
	assert_int_equal(a.to.day, 1);

	/* The admin's actions: a result and a reason, both checked. */
	assert_int_equal(sig_action_parse("adjudicate 0-1 left the club", 28,
	    &a, &e), 0);
	assert_string_equal(a.result, "0-1");
	assert_string_equal(a.reason, "left the club");
	assert_int_equal(sig_action_parse("adjudicate 2-0 x", 16, &a, &e), -1);
	assert_int_equal(e, SIG_ERESULT);
	assert_int_equal(sig_action_parse("adjudicate", 10, &a, &e), -1);
	assert_int_equal(e, SIG_ERESULT);
	assert_int_equal(sig_action_parse("abort", 5, &a, &e), -1);
	assert_int_equal(e, SIG_EREASON);
	assert_int_equal(sig_action_parse("abort  x", 8, &a, &e), -1);
	assert_int_equal(e, SIG_EREASON);
	assert_int_equal(sig_action_parse("abort x\ty", 9, &a, &e), -1);
	assert_int_equal(e, SIG_EREASON);
	memset(lines, 'x', sizeof lines);
	memcpy(lines, "abort ", 6);
	assert_int_equal(sig_action_parse(lines, 6 + SIG_REASON_MAX, &a, &e),
	    0);
	assert_int_equal(sig_action_parse(lines, 7 + SIG_REASON_MAX, &a, &e),
	    -1);
	assert_int_equal(e, SIG_ETOOLONG);

	/* A conditional keeps its lines as written. */
	assert_int_equal(sig_action_parse("conditional e5 Nf3; d5 exd5", 27,
	    &a, &e), 0);
	assert_string_equal(a.lines, "e5 Nf3; d5 exd5");
	/* Up to SIG_LINES_MAX bytes of lines: a long tree fits. */
	memcpy(lines, "conditional ", 12);
	for (i = 12; i < 12 + SIG_LINES_MAX; i += 4)
		memcpy(lines + i, "Nf3 ", 4);
	lines[12 + SIG_LINES_MAX - 1] = '3';
	assert_int_equal(sig_action_parse(lines, 12 + SIG_LINES_MAX, &a, &e),
	    0);
	st.game = 1;
	st.ply = 0;
	strcpy(st.player, "a");
	st.action = a;
	assert_int_equal(sig_statement_build(&st, &e), 0);
	assert_true(st.canon_len > 12 + SIG_LINES_MAX);
	lines[12 + SIG_LINES_MAX] = ' ';
	lines[12 + SIG_LINES_MAX + 1] = 'a';
	assert_int_equal(sig_action_parse(lines, 12 + SIG_LINES_MAX + 2, &a,
	    &e), -1);
	assert_int_equal(e, SIG_ETOOLONG);
}

/* One bad input per statement error, with the line at fault. */
static void
test_statement_errors(void **state)
{
	static const struct {
		const char *text;
		enum sig_error err;
		unsigned int line;
	} bad[] = {
		{ "", SIG_ENOHEADER, 0 },
		{ "hello\ncorrchess-v1x\ngame: 1\n", SIG_ENOHEADER, 0 },
		{ "hi\ncorrchess-v2\ngame: 1\n", SIG_EVERSION, 2 },
		{ "corrchess-v1\ngame 42\n", SIG_ESYNTAX, 2 },
		{ "corrchess-v1\ngame:42\n", SIG_ESYNTAX, 2 },
		{ "corrchess-v1\nGame: 42\n", SIG_ESYNTAX, 2 },
		{ "corrchess-v1\n game: 42\n", SIG_ESYNTAX, 2 },
		{ "corrchess-v1\ngmae: 42\n", SIG_EFIELD_UNKNOWN, 2 },
		{ "corrchess-v1\ngame: 42\nply: 1\ncomment: hi\n",
		  SIG_EFIELD_UNKNOWN, 4 },
		{ "corrchess-v1\ngame: 42\nply: 1\nplayer: a\naction: resign\n"
		  "note: x\n", SIG_EFIELD_UNKNOWN, 6 },
		{ "corrchess-v1\ngame: 42\ngame: 42\n", SIG_EFIELD_DUP, 3 },
		{ "corrchess-v1\ngame: 42\nply: 1\nplayer: a\naction: resign\n"
		  "ply: 2\n", SIG_EFIELD_DUP, 6 },
		{ "corrchess-v1\nply: 16\ngame: 42\n", SIG_EFIELD_ORDER, 2 },
		{ "corrchess-v1\ngame: 42\nply: 1\n\nplayer: a\n",
		  SIG_EFIELD_MISSING, 4 },
		{ "corrchess-v1\ngame: 42\nply: 1\nplayer: a\n",
		  SIG_EFIELD_MISSING, 4 },
		{ "corrchess-v1\n", SIG_EFIELD_MISSING, 1 },
		{ "corrchess-v1\ngame: 0\nply: 0\nplayer: a\naction: resign\n",
		  SIG_EPLAYER_GAME, 5 },
		{ "corrchess-v1\ngame: 4\nply: 0\nplayer: a\naction: "
		  "set lang fr\n", SIG_EPLAYER_GAME, 5 },
		{ "corrchess-v1\ngame: 0\nply: 0\nplayer: a\naction: "
		  "set Lang fr\n", SIG_EACTION_ARGS, 5 },
		{ "corrchess-v1\ngame: 0\nply: 0\nplayer: a\naction: "
		  "set lang\n", SIG_EACTION_ARGS, 5 },
		{ "corrchess-v1\ngame: 0\nply: 0\nplayer: a\naction: "
		  "email a@b.example c@d.example\n", SIG_EACTION_ARGS, 5 },
		{ "corrchess-v1\ngame: 0\nply: 0\nplayer: a\naction: "
		  "show-settings now\n", SIG_EACTION_ARGS, 5 },
		{ "corrchess-v1\ngame: 0\nply: 0\nplayer: a\naction: "
		  "add-key\n", SIG_EACTION_ARGS, 5 },
		{ "corrchess-v1\ngame: 00\n", SIG_EGAME, 2 },
		{ "corrchess-v1\ngame: 042\n", SIG_EGAME, 2 },
		{ "corrchess-v1\ngame: -1\n", SIG_EGAME, 2 },
		{ "corrchess-v1\ngame: +1\n", SIG_EGAME, 2 },
		{ "corrchess-v1\ngame:\n", SIG_EGAME, 2 },
		{ "corrchess-v1\ngame: 9223372036854775808\n", SIG_EGAME, 2 },
		{ "corrchess-v1\ngame: 4x\n", SIG_EGAME, 2 },
		{ "corrchess-v1\ngame: 1\nply: 01\n", SIG_EPLY, 3 },
		{ "corrchess-v1\ngame: 1\nply: 4294967296\n", SIG_EPLY, 3 },
		{ "corrchess-v1\ngame: 1\nply: one\n", SIG_EPLY, 3 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: Alice\n",
		  SIG_EPLAYER, 4 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: al ice\n",
		  SIG_EPLAYER, 4 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: "
		  "abcdefghijklmnopqrstuvwxyz0123456\n", SIG_EPLAYER, 4 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: al\xc3\xafs\n",
		  SIG_EPLAYER, 4 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\naction: castle\n",
		  SIG_EACTION, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\naction: Resign\n",
		  SIG_EACTION, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\naction:\n",
		  SIG_EACTION, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\naction: resign now\n",
		  SIG_EACTION_ARGS, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\naction: move\n",
		  SIG_EACTION_ARGS, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\naction: move  Nf3\n",
		  SIG_EACTION_ARGS, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\n"
		  "action: leave 2026-07-01\n", SIG_EACTION_ARGS, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\n"
		  "action: move Nf3\xc3\xa9\n", SIG_EMOVE, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\n"
		  "action: move abcdefghijklmnopqrstuvwxyz0123456\n",
		  SIG_EMOVE, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\n"
		  "action: move a b c d e f g h\n", SIG_EMOVE, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\n"
		  "action: leave 2026-02-29 2026-03-01\n", SIG_EDATE, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\n"
		  "action: conditional\n", SIG_ELINES, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\n"
		  "action: conditional e5 Nf3;d5 exd5\n", SIG_ELINES, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\n"
		  "action: conditional e5 Nf3; ; d5 exd5\n", SIG_ELINES, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\n"
		  "action: conditional e5  Nf3\n", SIG_ELINES, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\n"
		  "action: conditional e5 Nf3;\n", SIG_ELINES, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\n"
		  "action: cancel-conditional now\n", SIG_EACTION_ARGS, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\n"
		  "action: leave 2026-03-02 2026-03-01\n", SIG_EDATE, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\n"
		  "action: leave 2026-3-01 2026-03-05\n", SIG_EDATE, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\n"
		  "action: leave 2026-13-01 2027-01-05\n", SIG_EDATE, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\n"
		  "action: move 0123456789012345678901234567890123456789"
		  "0123456789012345678901234567890123456789\n", SIG_ETOOLONG, 5 },
		/* The signature. */
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\naction: resign\n",
		  SIG_ENOSIG, 5 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\naction: resign\n"
		  "\nThanks!\n", SIG_ENOSIG, 7 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\naction: resign\n"
		  "Thanks!\n", SIG_ESYNTAX, 6 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\naction: resign\n"
		  "signature: !!!!\n", SIG_EBASE64, 6 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\naction: resign\n"
		  "signature: AAAA\n", SIG_ESIGLEN, 6 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\naction: resign\n"
		  "signature:\n", SIG_ESIGLEN, 6 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\naction: resign\n"
		  "\n-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n", SIG_EARMOR, 7 },
		{ "corrchess-v1\ngame: 1\nply: 0\nplayer: a\naction: resign\n"
		  "-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n"
		  "-----END SSH SIGNATURE-----\n", SIG_ESSHSIG, 6 },
	};
	struct sig_statement st;
	struct sig_signature sg;
	enum sig_error e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		e = SIG_OK;
		if (sig_statement_parse(bad[i].text, strlen(bad[i].text), &st,
		    &sg, &e) != -1 || e != bad[i].err || st.line != bad[i].line)
			fail_msg("case %zu: got error %d line %u (%s), want "
			    "%d line %u", i, (int)e, st.line, sig_strerror(e),
			    (int)bad[i].err, bad[i].line);
	}
}

/*
 * One parser for what is verified and what is kept: the signature text it
 * writes back is the one it read; a second signature, mixed line ends and
 * an unpadded raw signature are refused; CR line ends read as LF.
 */
static void
test_statement_one_signature(void **state)
{
	uint8_t pk[32], sk[64], keys[1][32];
	struct sig_statement st, st2;
	struct sig_signature sg;
	enum sig_error e;
	char signed1[SIG_SIGNED_SIZE], signed2[SIG_SIGNED_SIZE];
	char text[2 * SIG_SIGNED_SIZE], *line1, *line2, *stmt, *sig;
	size_t i;

	(void)state;
	crypto_sign_keypair(pk, sk);
	memcpy(keys[0], pk, 32);
	memset(&st, 0, sizeof st);
	st.game = 7;
	strcpy(st.player, "alice");
	st.action.kind = SIG_ACT_MOVE;
	strcpy(st.action.move, "e4");
	assert_int_equal(sig_statement_build(&st, &e), 0);
	assert_int_equal(sig_statement_sign(&st, sk, SIG_FORM_RAW, signed1,
	    sizeof signed1, &e), 0);
	st2 = st;
	strcpy(st2.action.move, "d4");
	assert_int_equal(sig_statement_build(&st2, &e), 0);
	assert_int_equal(sig_statement_sign(&st2, sk, SIG_FORM_RAW, signed2,
	    sizeof signed2, &e), 0);
	line1 = strstr(signed1, "signature: ");
	line2 = strstr(signed2, "signature: ");

	/* The text written back is the signature line itself. */
	assert_int_equal(sig_statement_parse(signed1, strlen(signed1), &st,
	    &sg, &e), 0);
	assert_string_equal(sg.text, line1);
	assert_int_equal(sg.text_len, strlen(line1));

	/* CR line ends throughout: the same statement and signature. */
	strcpy(text, signed1);
	for (i = 0; text[i] != '\0'; i++)
		if (text[i] == '\n')
			text[i] = '\r';
	assert_int_equal(sig_statement_parse(text, strlen(text), &st, &sg,
	    &e), 0);
	assert_string_equal(sg.text, line1);
	assert_int_equal(sig_signature_verify(&st, &sg, keys, 1, NULL, &e), 0);

	/* The attack: CR ends, then a second, LF-ended signature. */
	text[strlen(text) - 1] = '\0';
	strcat(text, "\r\n");
	strcat(text, line2);
	assert_int_equal(sig_statement_parse(text, strlen(text), &st, &sg,
	    &e), -1);
	assert_int_equal(e, SIG_ELINE_ENDS);
	/* Two signatures with the same line ends. */
	snprintf(text, sizeof text, "%s%s", signed1, line2);
	assert_int_equal(sig_statement_parse(text, strlen(text), &st, &sg,
	    &e), -1);
	assert_int_equal(e, SIG_ESIG_TWICE);
	assert_int_equal(st.line, 7);
	snprintf(text, sizeof text, "%s\nregards,\n  %s", signed1, line2);
	assert_int_equal(sig_statement_parse(text, strlen(text), &st, &sg,
	    &e), -1);
	assert_int_equal(e, SIG_ESIG_TWICE);
	/* Without the signature asked for, only the statement counts. */
	assert_int_equal(sig_statement_parse(text, strlen(text), &st, NULL,
	    &e), 0);
	/* Mixed ends inside the statement. */
	snprintf(text, sizeof text, "%s", signed1);
	memmove(text + 21, text + 20, strlen(text + 20) + 1);
	text[20] = '\r';
	text[21] = '\n';
	assert_int_equal(sig_statement_parse(text, strlen(text), &st, &sg,
	    &e), -1);
	assert_int_equal(e, SIG_ELINE_ENDS);
	assert_int_equal(st.line, 2);

	/* The raw signature in one form: 88 characters with padding. */
	snprintf(text, sizeof text, "%s", signed1);
	line1 = strstr(text, "signature: ");
	assert_int_equal(strlen(line1), 11 + 88 + 1);
	assert_memory_equal(line1 + 11 + 86, "==\n", 3);
	strcpy(line1 + 11 + 86, "\n");
	assert_int_equal(sig_statement_parse(text, strlen(text), &st, &sg,
	    &e), -1);
	assert_int_equal(e, SIG_ESIGFORM);
	strcpy(line1 + 11 + 86, "=\n");
	assert_int_equal(sig_statement_parse(text, strlen(text), &st, &sg,
	    &e), -1);
	assert_int_equal(e, SIG_ESIGFORM);

	/* An SSH signature re-wrapped and indented: written back as
	 * ssh-keygen wrote it. */
	stmt = sigdata("statement.txt", NULL);
	sig = sigdata("statement.sig", NULL);
	snprintf(text, sizeof text, "%s\n", stmt);
	for (i = 0; sig[i] != '\0'; i++) {
		size_t o = strlen(text);

		if (sig[i] == '\n' && sig[i + 1] != '-' && i > 40)
			continue;
		text[o] = sig[i];
		text[o + 1] = '\0';
		if (sig[i] == '\n')
			strcat(text, "   ");
	}
	assert_int_equal(sig_statement_parse(text, strlen(text), &st, &sg,
	    &e), 0);
	assert_string_equal(sg.text, sig);
	free(stmt);
	free(sig);
}

/* Building refuses what parsing refuses. */
static void
test_build_errors(void **state)
{
	struct sig_statement st;
	enum sig_error e;

	(void)state;
	memset(&st, 0, sizeof st);
	st.game = 42;
	st.ply = 16;
	strcpy(st.player, "alice");
	st.action.kind = SIG_ACT_MOVE;
	strcpy(st.action.move, "Nf3");
	assert_int_equal(sig_statement_build(&st, &e), 0);
	assert_int_equal(st.canon_len, strlen(canon_text));
	assert_memory_equal(st.canon, canon_text, st.canon_len);

	strcpy(st.action.move, "Nf3 offer-draw");
	assert_int_equal(sig_statement_build(&st, &e), -1);
	assert_int_equal(e, SIG_EMOVE);
	st.action.move[0] = '\0';
	assert_int_equal(sig_statement_build(&st, &e), -1);
	assert_int_equal(e, SIG_EACTION_ARGS);
	strcpy(st.action.move, "Nf3");
	st.action.kind = (enum sig_action_kind)99;
	assert_int_equal(sig_statement_build(&st, &e), -1);
	assert_int_equal(e, SIG_EACTION);
	st.action.kind = SIG_ACT_LEAVE;
	st.action.from = (struct sig_date){ 2026, 8, 1 };
	st.action.to = (struct sig_date){ 2026, 7, 1 };
	assert_int_equal(sig_statement_build(&st, &e), -1);
	assert_int_equal(e, SIG_EDATE);
	st.action.to = (struct sig_date){ 2026, 9, 31 };
	assert_int_equal(sig_statement_build(&st, &e), -1);
	assert_int_equal(e, SIG_EDATE);
	st.action.to = (struct sig_date){ 2026, 9, 30 };
	assert_int_equal(sig_statement_build(&st, &e), 0);
	assert_non_null(strstr((const char *)st.canon,
	    "action: leave 2026-08-01 2026-09-30\n"));
	strcpy(st.player, "Alice");
	assert_int_equal(sig_statement_build(&st, &e), -1);
	assert_int_equal(e, SIG_EPLAYER);
	strcpy(st.player, "alice");
	st.game = 0;
	assert_int_equal(sig_statement_build(&st, &e), -1);
	assert_int_equal(e, SIG_EPLAYER_GAME);
	/* A player's own action: game 0, its ply their own count. */
	memset(&st.action, 0, sizeof st.action);
	st.action.kind = SIG_ACT_SET;
	strcpy(st.action.setting, "move-mail");
	strcpy(st.action.value, "off");
	st.ply = 3;
	assert_int_equal(sig_statement_build(&st, &e), 0);
	assert_int_equal(st.canon_len, 68);
	assert_memory_equal(st.canon, "corrchess-v1\ngame: 0\n"
	    "ply: 3\nplayer: alice\naction: set move-mail off\n", 68);
	st.game = 7;
	assert_int_equal(sig_statement_build(&st, &e), -1);
	assert_int_equal(e, SIG_EPLAYER_GAME);
}

/* --- record chain ---------------------------------------------------- */

/*
 * Known answers computed once with Python's hashlib, independently of
 * libsodium:
 *
 *   import hashlib, struct
 *   def rec(prev, s, g):
 *       return hashlib.blake2b(prev + struct.pack('>Q', len(s)) + s +
 *           struct.pack('>Q', len(g)) + g, digest_size=32).digest()
 *   h1 = rec(bytes(32), S1, bytes(range(64)))
 *   h2 = rec(h1, S2, bytes(range(64, 128)))
 *   h0 = rec(bytes(32), b'', b'')
 */
static void
test_chain_kat(void **state)
{
	static const char s1[] = "corrchess-v1\ngame: 42\nply: 0\n"
	    "player: alice\naction: move e4\n";
	static const char s2[] = "corrchess-v1\ngame: 42\nply: 1\n"
	    "player: bob\naction: move e5 offer-draw\n";
	uint8_t zero[32] = { 0 }, g1[64], g2[64], h1[32], h2[32], h0[32];
	uint8_t want[32];
	struct sig_signature sg;
	const uint8_t *b;
	size_t i, n;

	(void)state;
	for (i = 0; i < 64; i++) {
		g1[i] = (uint8_t)i;
		g2[i] = (uint8_t)(64 + i);
	}
	sig_record_hash(zero, (const uint8_t *)s1, strlen(s1), g1, 64, h1);
	hex("f6b158b1baf5e0d3c29802d55f4cacee54d5c89fc0d0ddc7d84761c69f3d04fe",
	    want, 32);
	assert_memory_equal(h1, want, 32);
	sig_record_hash(h1, (const uint8_t *)s2, strlen(s2), g2, 64, h2);
	hex("0dbeccc8e0721dd4fda9bce5bcfbdf2bfc0b51ac0c64ce70a1272fefcf6eaa6e",
	    want, 32);
	assert_memory_equal(h2, want, 32);
	sig_record_hash(zero, (const uint8_t *)"", 0, (const uint8_t *)"", 0,
	    h0);
	hex("df69a516de12056d0895fdea7a0274c5aba67091543238670513104c1af69c1f",
	    want, 32);
	assert_memory_equal(h0, want, 32);

	/* Moving a byte between the parts changes the hash. */
	sig_record_hash(zero, (const uint8_t *)s1, strlen(s1) - 1,
	    (const uint8_t *)"\n", 1, h0);
	sig_record_hash(zero, (const uint8_t *)s1, strlen(s1), NULL, 0, h2);
	assert_memory_not_equal(h0, h2, 32);

	/* The chained signature bytes of each form. */
	memset(&sg, 0, sizeof sg);
	sg.form = SIG_FORM_RAW;
	b = sig_signature_bytes(&sg, &n);
	assert_ptr_equal(b, sg.raw);
	assert_int_equal(n, 64);
	parse_with_sig("statement.sig", &(struct sig_statement){ 0 }, &sg);
	b = sig_signature_bytes(&sg, &n);
	assert_int_equal(n, sg.ssh.blob_len);
	assert_memory_equal(b, "SSHSIG", 6);
	sg.form = SIG_FORM_NONE;
	assert_null(sig_signature_bytes(&sg, &n));
	assert_int_equal(n, 0);
}

/* Every error has its own sentence. */
static void
test_strerror(void **state)
{
	int i, j;

	(void)state;
	for (i = SIG_OK; i <= SIG_EMESSAGE_EMPTY; i++) {
		assert_string_not_equal(sig_strerror((enum sig_error)i),
		    "unknown error");
		for (j = SIG_OK; j < i; j++)
			assert_string_not_equal(sig_strerror((enum sig_error)i),
			    sig_strerror((enum sig_error)j));
	}
	assert_string_equal(sig_strerror((enum sig_error)1000),
	    "unknown error");
}

/* A record's proof in a comment: written, re-wrapped as a PGN tool does,
 * read back the same; malformed commands refused with a reason. */
static void
test_proof(void **state)
{
	struct sig_proof	p, q;
	struct sig_signature	sg;
	uint8_t			pk[SIG_PUBKEY_BYTES], sk[SIG_SECKEY_BYTES];
	char			text[SIG_PROOF_SIZE], why[256], *c;
	enum sig_error		e;

	(void)state;
	assert_int_equal(sig_keypair(pk, sk), 0);
	memset(&p, 0, sizeof p);
	p.has_date = true;
	strcpy(p.date, "2026.12.01,23:55:01");
	p.has_record = true;
	p.seq = 3;
	strcpy(p.kind, "move-offer-draw");
	p.ply = 2;
	strcpy(p.door, "signed");
	sig_pubkey_fingerprint(pk, p.fp);
	p.st.game = 7;
	p.st.ply = 2;
	strcpy(p.st.player, "alice");
	assert_int_equal(sig_action_parse("move exd6 e.p. offer-draw", 25,
	    &p.st.action, &e), 0);
	assert_int_equal(sig_statement_build(&p.st, &e), 0);
	p.has_statement = true;
	assert_int_equal(sig_sign(p.st.canon, p.st.canon_len, sk, p.sig), 0);
	p.siglen = SIG_SIGNATURE_BYTES;
	p.has_hash = true;
	memset(p.hash, 0xab, sizeof p.hash);
	p.nkeys = 1;
	strcpy(p.keys[0].name, "alice");
	memcpy(p.keys[0].pk, pk, sizeof pk);
	assert_int_equal(sig_proof_format(&p, text, sizeof text), 0);
	assert_non_null(strstr(text, "[%ccst 7 2 alice "
	    "move%20exd6%20e.p.%20offer-draw]"));
	assert_null(strchr(text, '\n'));
	/* Every blank a line end, as a re-wrap may leave it. */
	for (c = text; *c != '\0'; c++)
		if (*c == ' ')
			*c = '\n';
	assert_int_equal(sig_proof_parse(text, strlen(text), &q, why,
	    sizeof why), 0);
	assert_true(q.has_date && q.has_record && q.has_statement &&
	    q.has_hash);
	assert_string_equal(q.date, p.date);
	assert_int_equal(q.seq, 3);
	assert_string_equal(q.kind, "move-offer-draw");
	assert_string_equal(q.fp, p.fp);
	assert_int_equal(q.st.canon_len, p.st.canon_len);
	assert_memory_equal(q.st.canon, p.st.canon, p.st.canon_len);
	assert_memory_equal(q.hash, p.hash, sizeof p.hash);
	assert_int_equal(q.nkeys, 1);
	assert_memory_equal(q.keys[0].pk, pk, sizeof pk);
	assert_int_equal(sig_proof_signature(&q, &sg, &e), 0);
	assert_int_equal(sig_signature_verify(&q.st, &sg,
	    (const uint8_t (*)[SIG_PUBKEY_BYTES])&pk, 1, NULL, &e), 0);

	/* No proof in an ordinary comment; bad ones said. */
	assert_int_equal(sig_proof_parse("a fine move [%clk 1:00:00]", 26, &q,
	    why, sizeof why), 0);
	assert_false(q.has_record || q.has_statement || q.siglen > 0);
	assert_int_equal(sig_proof_parse("[%ccst 7 2 alice move%2]", 24, &q,
	    why, sizeof why), -1);
	assert_string_equal(why, "[%ccst]: bad %-encoding of the action");
	assert_int_equal(sig_proof_parse("[%cchash 00]", 12, &q, why,
	    sizeof why), -1);
	assert_int_equal(sig_proof_parse("[%ccrec 1 move 0 signed", 23, &q,
	    why, sizeof why), -1);
	assert_string_equal(why, "[%ccrec is not closed");
	assert_int_equal(sig_proof_parse("[%ccrec 1 move 0 bribed -]", 26, &q,
	    why, sizeof why), -1);
	assert_string_equal(why, "[%ccrec]: unknown door \"bribed\"");
}

/* A message to the opponent: a sixth line, signed with the rest; its
 * limits refused with their own errors; a statement without it as
 * before; the proof in a PGN carries it. */
static void
test_message(void **state)
{
	static const char with[] = "corrchess-v1\ngame: 7\nply: 2\n"
	    "player: alice\naction: move e4 offer-draw\n"
	    "message: Bonne partie ! {é} <script>\n";
	static const struct {
		const char	*line;
		enum sig_error	 err;
	} bad[] = {
		{ "message: \xc3(", SIG_EMESSAGE_UTF8 },
		{ "message: a\tb", SIG_EMESSAGE_CONTROL },
		{ "message: a\x7f", SIG_EMESSAGE_CONTROL },
		{ "message: a\xc2\x85z", SIG_EMESSAGE_CONTROL },
		{ "message: \xe2\x80\xaeolleh", SIG_EMESSAGE_CONTROL },
		{ "message:", SIG_EMESSAGE_EMPTY },
		{ "message:  two spaces", SIG_EMESSAGE_EMPTY },
		{ "message:x", SIG_ESYNTAX },
	};
	struct sig_statement	st, st2;
	struct sig_signature	sg;
	struct sig_proof	p, q;
	uint8_t			pk[SIG_PUBKEY_BYTES], sk[SIG_SECKEY_BYTES];
	char			buf[SIG_SIGNED_SIZE], text[SIG_PROOF_SIZE];
	char			msg[SIG_MESSAGE_MAX + 1], why[256];
	char			big[2 * SIG_STATEMENT_MAX], *c, *end;
	enum sig_error		e;
	size_t			i;

	(void)state;
	assert_int_equal(sig_keypair(pk, sk), 0);

	/* Read, kept in the canonical bytes, signed and verified. */
	assert_int_equal(sig_statement_parse(with, sizeof with - 1, &st, NULL,
	    &e), 0);
	assert_string_equal(st.message, "Bonne partie ! {é} <script>");
	assert_int_equal(st.canon_len, sizeof with - 1);
	assert_memory_equal(st.canon, with, sizeof with - 1);
	assert_int_equal(sig_statement_message((const char *)st.canon,
	    st.canon_len, msg, sizeof msg), strlen(st.message));
	assert_string_equal(msg, st.message);
	assert_int_equal(sig_statement_sign(&st, sk, SIG_FORM_RAW, buf,
	    sizeof buf, &e), 0);
	assert_int_equal(sig_statement_parse(buf, strlen(buf), &st2, &sg, &e),
	    0);
	assert_string_equal(st2.message, st.message);
	assert_int_equal(sig_signature_verify(&st2, &sg,
	    (const uint8_t (*)[SIG_PUBKEY_BYTES])&pk, 1, NULL, &e), 0);
	/* The message is signed: another one does not verify. */
	buf[strstr(buf, "Bonne") - buf] = 'b';
	assert_int_equal(sig_statement_parse(buf, strlen(buf), &st2, &sg, &e),
	    0);
	assert_int_equal(sig_signature_verify(&st2, &sg,
	    (const uint8_t (*)[SIG_PUBKEY_BYTES])&pk, 1, NULL, &e), -1);

	/* Without a message: five lines, no message found. */
	assert_int_equal(sig_statement_parse(with, strstr(with, "message") -
	    with, &st2, NULL, &e), 0);
	assert_string_equal(st2.message, "");
	assert_int_equal(sig_statement_message((const char *)st2.canon,
	    st2.canon_len, msg, sizeof msg), 0);
	assert_int_equal(st2.canon[st2.canon_len - 1], '\n');
	assert_null(memmem(st2.canon, st2.canon_len, "message", 7));

	/* Faults of the message line, each named. */
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(big, sizeof big, "corrchess-v1\ngame: 7\nply: 2\n"
		    "player: alice\naction: resign\n%s\n", bad[i].line);
		assert_int_equal(sig_statement_parse(big, strlen(big), &st,
		    NULL, &e), -1);
		assert_int_equal(e, bad[i].err);
		assert_int_equal(st.line, 6);
	}
	/* 500 bytes, accents counted as two. */
	memset(&st, 0, sizeof st);
	st.game = 7;
	st.ply = 2;
	strcpy(st.player, "alice");
	st.action.kind = SIG_ACT_RESIGN;
	memset(st.message, 'a', SIG_MESSAGE_MAX);
	st.message[SIG_MESSAGE_MAX] = '\0';
	assert_int_equal(sig_statement_build(&st, &e), 0);
	assert_true(st.canon_len <= SIG_STATEMENT_MAX);
	snprintf(big, sizeof big, "corrchess-v1\ngame: 7\nply: 2\n"
	    "player: alice\naction: resign\nmessage: %s\xc3\xa9\n",
	    st.message + 1);
	assert_int_equal(sig_statement_parse(big, strlen(big), &st2, NULL,
	    &e), -1);
	assert_int_equal(e, SIG_EMESSAGE_LONG);
	/* A message with an action that takes none. */
	st.action.kind = SIG_ACT_LEAVE;
	st.action.from.year = st.action.to.year = 2026;
	st.action.from.month = st.action.to.month = 7;
	st.action.from.day = st.action.to.day = 1;
	assert_int_equal(sig_statement_build(&st, &e), -1);
	assert_int_equal(e, SIG_EMESSAGE_ACTION);
	snprintf(big, sizeof big, "corrchess-v1\ngame: 7\nply: 2\n"
	    "player: alice\naction: conditional e5 Nf3\nmessage: hi\n");
	assert_int_equal(sig_statement_parse(big, strlen(big), &st2, NULL,
	    &e), -1);
	assert_int_equal(e, SIG_EMESSAGE_ACTION);
	assert_string_equal(sig_strerror(SIG_EMESSAGE_CONTROL), "the message "
	    "holds a control character (a tab, a line break, ...) or a "
	    "bidirectional control: write it on one line of plain text");

	/* In a proof: %-encoded, no blank, no brace; read back the same. */
	memset(&p, 0, sizeof p);
	assert_int_equal(sig_statement_parse(with, sizeof with - 1, &p.st,
	    NULL, &e), 0);
	p.has_statement = true;
	assert_int_equal(sig_proof_format(&p, text, sizeof text), 0);
	assert_string_equal(text, "[%ccst 7 2 alice move%20e4%20offer-draw] "
	    "[%ccmsg Bonne%20partie%20!%20%7B%C3%A9%7D%20<script>]");
	assert_int_equal(sig_proof_parse(text, strlen(text), &q, why,
	    sizeof why), 0);
	assert_true(q.has_statement);
	assert_string_equal(q.st.message, p.st.message);
	assert_int_equal(q.st.canon_len, p.st.canon_len);
	assert_memory_equal(q.st.canon, p.st.canon, p.st.canon_len);
	/* A long message in pieces of 64 at most, %XX kept whole; read back
	 * after a re-wrap. */
	memset(p.st.message, 0, sizeof p.st.message);
	for (i = 0; i < 80; i++)
		strcat(p.st.message, "\xc3\xa9t\xc3\xa9 ");
	strcat(p.st.message, "fin");
	assert_int_equal(sig_statement_build(&p.st, &e), 0);
	assert_int_equal(sig_proof_format(&p, text, sizeof text), 0);
	for (c = text; *c != '\0'; c = end) {
		end = c + strcspn(c, " ]");
		assert_true(end - c <= 64);
		if (*c == '%' || c[0] == 'C')
			assert_true(end[-1] != '%' && (end - c < 2 ||
			    end[-2] != '%'));
		if (*end != '\0')
			end++;
	}
	for (c = text; *c != '\0'; c++)
		if (*c == ' ')
			*c = '\n';
	assert_int_equal(sig_proof_parse(text, strlen(text), &q, why,
	    sizeof why), 0);
	assert_string_equal(q.st.message, p.st.message);
	assert_memory_equal(q.st.canon, p.st.canon, p.st.canon_len);
	/* A message without its statement, or one it cannot take. */
	assert_int_equal(sig_proof_parse("[%ccmsg hi]", 11, &q, why,
	    sizeof why), -1);
	assert_string_equal(why, "[%ccmsg] without [%ccst]");
	snprintf(big, sizeof big, "[%%ccst 7 2 alice resign] [%%ccmsg a%%09b]");
	assert_int_equal(sig_proof_parse(big, strlen(big), &q, why,
	    sizeof why), -1);
	assert_string_equal(why, "[%ccmsg]: the message holds a control "
	    "character (a tab, a line break, ...) or a bidirectional control: "
	    "write it on one line of plain text");
}

/* A game's creation record: its exact bytes, read back, what is refused,
 * and its %-command in a PGN comment. */
static void
test_creation(void **state)
{
	static const char want[] =
	    "corrchess-game-v1\n"
	    "game: 42\n"
	    "white: alice\n"
	    "black: bob\n"
	    "variant: chess960\n"
	    "start: bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\n"
	    "time-control: 3d/move\n"
	    "draw-policy: claim\n"
	    "draw-min-move: 30\n"
	    "draw-offer-every: 0\n"
	    "rated: yes\n"
	    "auth: signed-or-attested\n"
	    "event: Coupe d'\xc3\xa9t\xc3\xa9 [2026]\n"
	    "round: 3.1\n";
	static const char *const bad[] = {
		/* another first line */
		"corrchess-v1\ngame: 42\n",
		/* a leading zero */
		"corrchess-game-v1\ngame: 042\nwhite: alice\n",
		/* the lines out of order */
		"corrchess-game-v1\ngame: 1\nblack: bob\nwhite: alice\n",
		/* rated neither yes nor no */
		"corrchess-game-v1\ngame: 1\nwhite: a\nblack: b\nvariant: "
		"standard\nstart: 8/8/8/8/8/8/8/K1k5 w - - 0 1\ntime-control: "
		"none\ndraw-policy: auto\ndraw-min-move: 0\ndraw-offer-every: "
		"0\nrated: maybe\nauth: signed\n",
		/* a line too many */
		"corrchess-game-v1\ngame: 1\nwhite: a\nblack: b\nvariant: "
		"standard\nstart: 8/8/8/8/8/8/8/K1k5 w - - 0 1\ntime-control: "
		"none\ndraw-policy: auto\ndraw-min-move: 0\ndraw-offer-every: "
		"0\nrated: no\nauth: signed\nsite: here\n",
		/* no final line feed */
		"corrchess-game-v1\ngame: 1\nwhite: a\nblack: b\nvariant: "
		"standard\nstart: 8/8/8/8/8/8/8/K1k5 w - - 0 1\ntime-control: "
		"none\ndraw-policy: auto\ndraw-min-move: 0\ndraw-offer-every: "
		"0\nrated: no\nauth: signed",
		/* the same player on both sides */
		"corrchess-game-v1\ngame: 1\nwhite: a\nblack: a\nvariant: "
		"standard\nstart: 8/8/8/8/8/8/8/K1k5 w - - 0 1\ntime-control: "
		"none\ndraw-policy: auto\ndraw-min-move: 0\ndraw-offer-every: "
		"0\nrated: no\nauth: signed\n",
	};
	struct sig_creation	 c, back;
	struct sig_proof	*p, *q;
	char			 why[256], *text;
	size_t			 i;

	(void)state;
	memset(&c, 0, sizeof c);
	c.game = 42;
	strcpy(c.white, "alice");
	strcpy(c.black, "bob");
	strcpy(c.variant, "chess960");
	strcpy(c.start, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR "
	    "w HFhf - 2 9");
	strcpy(c.time_control, "3d/move");
	strcpy(c.policy, "claim");
	c.draw_min_move = 30;
	c.rated = true;
	strcpy(c.auth, "signed-or-attested");
	strcpy(c.event, "Coupe d'\xc3\xa9t\xc3\xa9 [2026]");
	strcpy(c.round, "3.1");
	assert_int_equal(sig_creation_build(&c, why, sizeof why), 0);
	assert_int_equal(c.canon_len, strlen(want));
	assert_memory_equal(c.canon, want, c.canon_len);

	assert_int_equal(sig_creation_parse(c.canon, c.canon_len, &back, why,
	    sizeof why), 0);
	assert_string_equal(back.white, "alice");
	assert_string_equal(back.black, "bob");
	assert_string_equal(back.start, c.start);
	assert_string_equal(back.event, c.event);
	assert_int_equal(back.draw_min_move, 30);
	assert_true(back.rated);

	/* Without event and round, their lines are absent. */
	c.event[0] = c.round[0] = '\0';
	assert_int_equal(sig_creation_build(&c, why, sizeof why), 0);
	assert_null(strstr((const char *)c.canon, "event"));
	assert_int_equal(sig_creation_parse(c.canon, c.canon_len, &back, why,
	    sizeof why), 0);
	assert_string_equal(back.event, "");

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		why[0] = '\0';
		assert_int_equal(sig_creation_parse((const uint8_t *)bad[i],
		    strlen(bad[i]), &back, why, sizeof why), -1);
		assert_true(why[0] != '\0');
	}
	strcpy(c.event, "a\nb");
	assert_int_equal(sig_creation_build(&c, why, sizeof why), -1);
	strcpy(c.event, "");
	strcpy(c.white, "Alice");
	assert_int_equal(sig_creation_build(&c, why, sizeof why), -1);
	strcpy(c.white, "alice");

	/* In a PGN comment: %-encoded pieces, read back byte for byte. */
	p = calloc(1, sizeof *p);
	q = calloc(1, sizeof *q);
	text = malloc(SIG_PROOF_SIZE);
	assert_non_null(p);
	assert_non_null(q);
	assert_non_null(text);
	memcpy(p->creation, want, strlen(want));
	p->creation_len = strlen(want);
	p->has_creation = true;
	memset(p->sig, 7, SIG_SIGNATURE_BYTES);
	p->siglen = SIG_SIGNATURE_BYTES;
	p->has_hash = true;
	assert_int_equal(sig_proof_format(p, text, SIG_PROOF_SIZE), 0);
	assert_non_null(strstr(text, "[%ccgame corrchess-game-v1%0Agame:%2042"));
	assert_null(strpbrk(text, "\n{}"));
	assert_null(strstr(text, "[2026]"));
	assert_int_equal(sig_proof_parse(text, strlen(text), q, why,
	    sizeof why), 0);
	assert_true(q->has_creation);
	assert_int_equal(q->creation_len, strlen(want));
	assert_memory_equal(q->creation, want, strlen(want));
	assert_int_equal(q->siglen, SIG_SIGNATURE_BYTES);
	assert_false(q->has_record);
	/* A record of its own: not with a statement's commands. */
	strcpy(text, "[%ccgame corrchess-game-v1%0A] [%ccrec 1 move 0 signed -]");
	assert_int_equal(sig_proof_parse(text, strlen(text), q, why,
	    sizeof why), -1);
	assert_non_null(strstr(why, "[%ccgame] is a record of its own"));
	strcpy(text, "[%ccgame corrchess-game-v1%0] ");
	assert_int_equal(sig_proof_parse(text, strlen(text), q, why,
	    sizeof why), -1);
	free(p);
	free(q);
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc8032_vectors),
		cmocka_unit_test(test_pubkey_openssh),
		cmocka_unit_test(test_pubkey_errors),
		cmocka_unit_test(test_seckey_openssh),
		cmocka_unit_test(test_seckey_errors),
		cmocka_unit_test(test_seckey_write),
		cmocka_unit_test(test_live_sshkeygen_signs_with_our_key),
		cmocka_unit_test(test_live_sshkeygen_verifies_our_sig),
		cmocka_unit_test(test_sshsig_keygen_files),
		cmocka_unit_test(test_sshsig_tampered),
		cmocka_unit_test(test_sshsig_ours),
		cmocka_unit_test(test_sshsig_malformed),
		cmocka_unit_test(test_statement_in_text),
		cmocka_unit_test(test_rawsig_tampered),
		cmocka_unit_test(test_statement_sign_sshsig),
		cmocka_unit_test(test_actions),
		cmocka_unit_test(test_statement_errors),
		cmocka_unit_test(test_statement_one_signature),
		cmocka_unit_test(test_build_errors),
		cmocka_unit_test(test_chain_kat),
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_statement_two_steps),
		cmocka_unit_test(test_agent_requests),
		cmocka_unit_test(test_agent_identities),
		cmocka_unit_test(test_agent_signature),
		cmocka_unit_test(test_keyfile),
		cmocka_unit_test(test_proof),
		cmocka_unit_test(test_message),
		cmocka_unit_test(test_creation),
	};

	if (sig_init() != 0)
		return 1;
	return cmocka_run_group_tests_name("sig", tests, NULL, NULL);
}
