# syntax=docker/dockerfile:1
# The MCP tool server, agent mcp -http, as a static binary on a distroless
# base, running as a non-root user. Build and run:
#
#   docker build -t toolreg-mcp .
#   docker run --rm -p 8080:8080 -e TOOLREG_MCP_TOKEN="$(openssl rand -hex 32)" toolreg-mcp
#
# deploy/ holds the Kubernetes manifests; agentcli/deploy_test.go checks
# this file's ENTRYPOINT, EXPOSE and USER against the agent's flags.

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/agent ./cmd/agent

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/agent /agent
# The temp directory is where tools with write_files may write; the
# Deployment mounts an emptyDir there and runs with a read-only root.
WORKDIR /tmp
USER 65532:65532
EXPOSE 8080
# Not loopback, so the server refuses to start without TOOLREG_MCP_TOKEN
# (or -token-file), a secret of at least 16 characters.
ENTRYPOINT ["/agent", "mcp", "-http", "0.0.0.0:8080"]
