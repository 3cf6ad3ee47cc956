// End-to-end check of toolreg's MCP server with the official TypeScript SDK
// client. TestTypeScriptClient (toolmcp/e2e_test.go) runs it:
//
//	node e2e.mjs stdio COMMAND ARGS...   spawn the server, talk over stdio
//	node e2e.mjs http URL                talk streamable HTTP to URL
//
// It lists the tools, makes a good and a bad call of count (whose
// outputSchema the client checks structuredContent against), checks what a
// client alone can check, and prints a JSON report on stdout for the Go test
// to compare. It also lists the prompts (the server's skills), gets one,
// and asks for one that does not exist. It exits 1 on any failure.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

async function main() {
  const [mode, ...rest] = process.argv.slice(2);
  let transport;
  if (mode === "stdio" && rest.length > 0) {
    transport = new StdioClientTransport({
      command: rest[0],
      args: rest.slice(1),
      env: { ...process.env },
      stderr: "inherit",
    });
  } else if (mode === "http" && rest.length === 1) {
    transport = new StreamableHTTPClientTransport(new URL(rest[0]));
  } else {
    throw new Error("usage: node e2e.mjs stdio COMMAND ARGS... | http URL");
  }

  const client = new Client({ name: "toolreg-e2e", version: "0.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const ct = tools.find((t) => t.name === "count");
    assert.ok(ct, "count is listed");
    assert.equal(ct.annotations?.readOnlyHint, true, "count is annotated read-only");
    assert.equal(ct.outputSchema?.type, "object", "count has an object outputSchema");

    // The client validates structuredContent against the outputSchema.
    const good = await client.callTool({
      name: "count",
      arguments: { text: "hello brave new world\nsecond line" },
    });
    assert.ok(!good.isError, `count failed: ${JSON.stringify(good)}`);
    assert.deepEqual(good.structuredContent, JSON.parse(good.content[0].text), "structuredContent is the text result");

    const bad = await client.callTool({ name: "count", arguments: { txt: 1 } });
    assert.equal(bad.isError, true, "bad arguments give isError");
    assert.match(bad.content[0].text, /^Error: count: bad arguments: /);

    // Skills are prompts: listed with their descriptions, and prompts/get
    // returns a skill's body as one user message.
    const { prompts } = await client.listPrompts();
    assert.ok(prompts.length > 0, "prompts are listed");
    const got = await client.getPrompt({ name: prompts[0].name });
    assert.equal(got.messages.length, 1, "one message");
    assert.equal(got.messages[0].content.type, "text", "a text message");
    let unknownPrompt = "";
    try {
      await client.getPrompt({ name: "no-such-skill" });
    } catch (err) {
      unknownPrompt = String(err?.message ?? err);
    }
    assert.ok(unknownPrompt, "an unknown prompt is an error");

    const report = {
      tools: tools.map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
      })),
      good: { isError: good.isError ?? false, text: good.content[0].text, structuredContent: good.structuredContent },
      bad: { isError: bad.isError, text: bad.content[0].text },
      prompts: prompts.map((p) => ({ name: p.name, description: p.description })),
      prompt: {
        name: prompts[0].name,
        description: got.description,
        role: got.messages[0].role,
        text: got.messages[0].content.text,
      },
      unknownPrompt,
    };
    process.stdout.write(JSON.stringify(report) + "\n");
  } finally {
    await client.close();
  }
}

main().catch((err) => {
  console.error(`e2e: ${err?.stack ?? err}`);
  process.exit(1);
});
