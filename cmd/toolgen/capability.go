package main

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// The capabilities, as bits of tool.Capability, and the names of their
// constants in package tool.
const (
	capExec uint64 = 1 << iota
	capNetwork
	capWriteFiles
	capReadFiles
	capEnv
	capUnsafe
)

var capConsts = []struct {
	bit       uint64
	name, tag string
}{
	{capExec, "Exec", "exec"},
	{capNetwork, "Network", "network"},
	{capWriteFiles, "WriteFiles", "write_files"},
	{capReadFiles, "ReadFiles", "read_files"},
	{capEnv, "Env", "env"},
	{capUnsafe, "Unsafe", "unsafe"},
}

// sensitive lists, by package path, the functions, methods (as "Type.Method")
// and variables that give a capability; "*" stands for everything in the
// package.
var sensitive = map[string]map[string]uint64{
	"os/exec": {"*": capExec},
	"os": {
		"StartProcess": capExec, "Process.Kill": capExec, "Process.Signal": capExec,
		"Create": capWriteFiles, "CreateTemp": capWriteFiles, "WriteFile": capWriteFiles,
		"Remove": capWriteFiles, "RemoveAll": capWriteFiles, "Rename": capWriteFiles,
		"Mkdir": capWriteFiles, "MkdirAll": capWriteFiles, "MkdirTemp": capWriteFiles,
		"Chmod": capWriteFiles, "Chown": capWriteFiles, "Lchown": capWriteFiles, "Chtimes": capWriteFiles,
		"Truncate": capWriteFiles, "Link": capWriteFiles, "Symlink": capWriteFiles, "OpenFile": capWriteFiles,
		"File.Write": capWriteFiles, "File.WriteString": capWriteFiles, "File.WriteAt": capWriteFiles,
		"File.Truncate": capWriteFiles, "File.Chmod": capWriteFiles, "File.Chown": capWriteFiles, "File.ReadFrom": capWriteFiles,
		"Open": capReadFiles, "ReadFile": capReadFiles, "ReadDir": capReadFiles, "Stat": capReadFiles,
		"Lstat": capReadFiles, "DirFS": capReadFiles, "Readlink": capReadFiles, "CopyFS": capWriteFiles,
		"Getenv": capEnv, "LookupEnv": capEnv, "Environ": capEnv, "Setenv": capEnv,
		"Unsetenv": capEnv, "Clearenv": capEnv, "ExpandEnv": capEnv,
	},
	"io/ioutil": {
		"WriteFile": capWriteFiles, "TempFile": capWriteFiles, "TempDir": capWriteFiles,
		"ReadFile": capReadFiles, "ReadDir": capReadFiles,
	},
	"path/filepath": {"Walk": capReadFiles, "WalkDir": capReadFiles, "Glob": capReadFiles, "EvalSymlinks": capReadFiles},
	"syscall": {
		"Exec": capExec, "ForkExec": capExec, "StartProcess": capExec, "Kill": capExec,
		"Unlink": capWriteFiles, "Rmdir": capWriteFiles, "Mkdir": capWriteFiles, "Rename": capWriteFiles,
		"Creat": capWriteFiles, "Truncate": capWriteFiles, "Chmod": capWriteFiles, "Write": capWriteFiles,
		"Statfs": capReadFiles, "Stat": capReadFiles, "Lstat": capReadFiles, "Open": capReadFiles, "Read": capReadFiles,
		"Getenv": capEnv, "Setenv": capEnv, "Environ": capEnv, "Unsetenv": capEnv,
		"Syscall": capUnsafe, "Syscall6": capUnsafe, "RawSyscall": capUnsafe, "RawSyscall6": capUnsafe,
	},
	"golang.org/x/sys/unix": {
		"Exec": capExec, "Statfs": capReadFiles, "Stat": capReadFiles, "Lstat": capReadFiles, "Open": capReadFiles,
		"Unlink": capWriteFiles, "Rename": capWriteFiles, "Mkdir": capWriteFiles,
		"Syscall": capUnsafe, "RawSyscall": capUnsafe,
	},
	"net/http": {
		"Get": capNetwork, "Head": capNetwork, "Post": capNetwork, "PostForm": capNetwork,
		"Client.Do": capNetwork, "Client.Get": capNetwork, "Client.Head": capNetwork, "Client.Post": capNetwork, "Client.PostForm": capNetwork,
		"Transport.RoundTrip": capNetwork, "DefaultClient": capNetwork, "DefaultTransport": capNetwork,
		"ListenAndServe": capNetwork, "ListenAndServeTLS": capNetwork, "Serve": capNetwork, "ServeTLS": capNetwork,
		"Server.ListenAndServe": capNetwork, "Server.ListenAndServeTLS": capNetwork, "Server.Serve": capNetwork, "Server.ServeTLS": capNetwork,
	},
	"net": {
		"Dial": capNetwork, "DialTimeout": capNetwork, "DialTCP": capNetwork, "DialUDP": capNetwork, "DialIP": capNetwork, "DialUnix": capNetwork,
		"Listen": capNetwork, "ListenPacket": capNetwork, "ListenTCP": capNetwork, "ListenUDP": capNetwork, "ListenUnix": capNetwork,
		"LookupHost": capNetwork, "LookupIP": capNetwork, "LookupAddr": capNetwork, "LookupCNAME": capNetwork,
		"LookupMX": capNetwork, "LookupNS": capNetwork, "LookupTXT": capNetwork, "LookupSRV": capNetwork, "LookupPort": capNetwork,
		"Dialer.Dial": capNetwork, "Dialer.DialContext": capNetwork, "ListenConfig.Listen": capNetwork,
		"Resolver.LookupHost": capNetwork, "Resolver.LookupIPAddr": capNetwork, "Resolver.LookupIP": capNetwork,
		"DefaultResolver": capNetwork,
	},
	"crypto/tls":  {"Dial": capNetwork, "DialWithDialer": capNetwork, "Dialer.Dial": capNetwork, "Dialer.DialContext": capNetwork},
	"unsafe":      {"*": capUnsafe},
	"reflect":     {"*": capUnsafe},
	"plugin":      {"*": capUnsafe},
	"C":           {"*": capUnsafe},
	"runtime/cgo": {"*": capUnsafe},
}

// pureNet lists the packages under net/ that do no I/O.
var pureNet = map[string]bool{
	"net/url": true, "net/netip": true, "net/mail": true, "net/textproto": true,
	"net/http/httptrace": true, "net/http/cookiejar": true, "net/http/httputil": true,
}

// capabilityOf returns the capabilities that using obj gives.
func capabilityOf(obj types.Object) uint64 {
	if obj.Pkg() == nil {
		return 0
	}
	path := obj.Pkg().Path()
	switch o := obj.(type) {
	case *types.Func, *types.TypeName:
	case *types.Var:
		if o.IsField() {
			return 0 // reading a field of a value does nothing by itself
		}
	default:
		return 0
	}
	if strings.HasPrefix(path, "net/") && !pureNet[path] && sensitive[path] == nil {
		if _, isType := obj.(*types.TypeName); !isType {
			return capNetwork
		}
		return 0
	}
	names, ok := sensitive[path]
	if !ok {
		return 0
	}
	if c, ok := names["*"]; ok {
		return c
	}
	if _, isType := obj.(*types.TypeName); isType {
		return 0
	}
	return names[memberName(obj)]
}

// memberName names a function, variable or method of a package as
// "Name" or "Type.Method".
func memberName(obj types.Object) string {
	name := obj.Name()
	if fn, ok := obj.(*types.Func); ok {
		if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
			t := recv.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if n, ok := types.Unalias(t).(*types.Named); ok {
				name = n.Obj().Name() + "." + name
			}
		}
	}
	return name
}

// capUse is where a tool first reaches a capability.
type capUse struct {
	pos  token.Pos
	what string // the function or variable used, as pkg.Name
}

// audit finds the capabilities that the code reachable from fn, through
// the functions and methods of the tool package that it uses, reaches in
// other packages. It follows static calls and function values; calls
// through interfaces and into other non-standard packages are not
// followed.
func (c *checker) audit(fn *types.Func) (reached uint64, first map[uint64]capUse) {
	first = map[uint64]capUse{}
	decls := c.funcDecls()
	seen := map[*types.Func]bool{fn: true}
	queue := []*types.Func{fn}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		decl := decls[f]
		if decl == nil || decl.Body == nil {
			continue
		}
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			obj := c.pkg.TypesInfo.Uses[id]
			if obj == nil {
				return true
			}
			if pf, ok := obj.(*types.Func); ok && obj.Pkg() == c.pkg.Types {
				for _, g := range append([]*types.Func{pf.Origin()}, c.implementations(pf)...) {
					if !seen[g] {
						seen[g] = true
						queue = append(queue, g)
					}
				}
				return true
			}
			if obj.Pkg() == c.pkg.Types {
				return true
			}
			capBits := capabilityOf(obj)
			if capBits == 0 {
				return true
			}
			reached |= capBits
			for _, cc := range capConsts {
				if capBits&cc.bit != 0 {
					if _, ok := first[cc.bit]; !ok {
						first[cc.bit] = capUse{pos: id.Pos(), what: obj.Pkg().Name() + "." + memberName(obj)}
					}
				}
			}
			return true
		})
	}
	return reached, first
}

// implementations returns, for a method of an interface of the tool
// package, the methods of the package's concrete types that implement it,
// since a call through the interface may reach any of them.
func (c *checker) implementations(m *types.Func) []*types.Func {
	recv := m.Type().(*types.Signature).Recv()
	if recv == nil {
		return nil
	}
	iface, ok := recv.Type().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var out []*types.Func
	for fn, decl := range c.funcDecls() {
		r := fn.Type().(*types.Signature).Recv()
		if r == nil || fn.Name() != m.Name() || decl == nil {
			continue
		}
		t := r.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if types.Implements(t, iface) || types.Implements(types.NewPointer(t), iface) {
			out = append(out, fn)
		}
	}
	slices.SortFunc(out, func(a, b *types.Func) int { return cmp.Compare(a.Pos(), b.Pos()) })
	return out
}

// funcDecls maps the functions and methods of the tool package to their
// declarations, computed once.
func (c *checker) funcDecls() map[*types.Func]*ast.FuncDecl {
	if c.decls != nil {
		return c.decls
	}
	c.decls = map[*types.Func]*ast.FuncDecl{}
	for _, f := range c.pkg.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if obj, ok := c.pkg.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					c.decls[obj] = fd
				}
			}
		}
	}
	return c.decls
}

// checkCapabilities audits t's Execute and warns about each capability it
// reaches that its Definition does not declare.
func (c *checker) checkCapabilities(t *toolInfo, exe *types.Func) {
	reached, first := c.audit(exe)
	t.Reaches = reached
	for _, cc := range capConsts {
		if reached&cc.bit == 0 || t.Capabilities&cc.bit != 0 {
			continue
		}
		use := first[cc.bit]
		c.warn(use.pos, "tool %s reaches capability %s here (%s), but %s.Definition does not declare it: add %s to its Capabilities",
			t.ID, cc.tag, use.what, t.TypeName, "tool."+cc.name)
	}
}
