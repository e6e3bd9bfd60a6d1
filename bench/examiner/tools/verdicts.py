# The embedded judge's verdict on every labelled answer of the working set, through
# `viva blueprints judge`; writes /tmp/emb/verdicts.json for embedding_credit.py.
# VIVA names the viva binary (default /var/tmp/viva-target/debug/viva).
import yaml, glob, subprocess, json, sys, os
REPO=__import__('os').path.normpath(__import__('os').path.join(__import__('os').path.dirname(__import__('os').path.abspath(__file__)),'..','..','..'))
os.makedirs('/tmp/emb', exist_ok=True)
answers=[]
for f in sorted(glob.glob(REPO+'/bench/examiner/answers/*.yaml')):
    answers += yaml.safe_load(open(f))['answers']
out=[]
for i,a in enumerate(answers):
    r=subprocess.run([os.environ.get('VIVA', '/var/tmp/viva-target/debug/viva'),'blueprints','judge',a['element'],a['answer']],capture_output=True,text=True,cwd=REPO)
    facts={}; score=None; mis=[]; na=False; dis=False
    for line in r.stdout.splitlines():
        if line.startswith('score: '): score=line[7:]
        elif line.startswith('  holds misconception '): mis.append(line.split()[-1])
        elif line.startswith('  non-answer: '):
            na='non-answer: true' in line; dis='disclaimed: true' in line
        elif line.startswith('  ') and ': ' in line and not line.startswith('  non-answer'):
            k,v=line.strip().split(': ',1); facts[k]=v
    out.append(dict(a, score=score, facts=facts, mis=mis, na=na, dis=dis))
json.dump(out, open('/tmp/emb/verdicts.json','w'))
print(len(out))
