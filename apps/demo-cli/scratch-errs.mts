import { ChatOpenAI } from '@langchain/openai';
import { createServer } from 'node:http';
import { z } from 'zod';
const statuses = [500, 429, 401, 404, 400];
const server = createServer((req, res) => {
  const s = statuses.shift() ?? 200;
  if (s === 200) { res.writeHead(200, {'content-type':'application/json'}).end(JSON.stringify({id:'x',object:'chat.completion',created:1,model:'m',choices:[{index:0,message:{role:'assistant',content:null,tool_calls:[{id:'c1',type:'function',function:{name:'summary',arguments:'{"summary":"hi"}'}}]},finish_reason:'tool_calls'}],usage:{prompt_tokens:11,completion_tokens:5,total_tokens:16}})); return; }
  res.writeHead(s, {'content-type':'application/json'}).end(JSON.stringify({error:{message:'boom '+s,type:'x'}}));
});
await new Promise<void>(r => server.listen(0,'127.0.0.1',()=>r()));
const port = (server.address() as any).port;
const show = (e: any) => console.log({ name: e?.name, ctor: e?.constructor?.name, status: e?.status, code: e?.code, lc: e?.lc_error_code, msg: String(e?.message).slice(0,120), cause: e?.cause?.code ?? e?.cause?.name });
for (let i = 0; i < 5; i++) {
  const m = new ChatOpenAI({ model: 'm', apiKey: 'k', maxRetries: 0, configuration: { baseURL: `http://127.0.0.1:${port}/v1` } });
  try { await m.invoke('hi'); } catch (e) { show(e); }
}
const m = new ChatOpenAI({ model: 'm', apiKey: 'k', maxRetries: 0, configuration: { baseURL: `http://127.0.0.1:${port}/v1` } });
const r: any = await m.withStructuredOutput(z.object({ summary: z.string() }), { name: 'summary', includeRaw: true, method: 'functionCalling' }).invoke('hi');
console.log(r.parsed, r.raw.usage_metadata, r.raw.tool_calls);
server.close(); server.closeAllConnections();
const dead = new ChatOpenAI({ model: 'm', apiKey: 'k', maxRetries: 0, configuration: { baseURL: `http://127.0.0.1:1/v1` } });
try { await dead.invoke('hi'); } catch (e) { show(e); }
const slow = new ChatOpenAI({ model: 'm', apiKey: 'k', maxRetries: 0, timeout: 200, configuration: { baseURL: `http://10.255.255.1/v1` } });
try { await slow.invoke('hi'); } catch (e) { show(e); }
