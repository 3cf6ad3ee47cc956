package audit

import (
	"bytes"
	"context"
	"encoding/hex"
	"log"
	"log/slog"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/toolreg/toolreg/internal/audit/testdata/probes/anyslicefunc"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/appendkeep"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/argsvar"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/arrconv"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/asmdata"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/assertalias"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/assertctx"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/assertescape"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/assertgoexit"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/assertlazy"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/assertlazygen"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/assertrange"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/assertrecover"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/astype"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/atomicaddr"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/atomicfunc"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/benchsetenv"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/benchtempdir"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/boundload"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/bufiowrap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/buildkeep"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/cellkeep"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/cfgaddr"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/chanaddr"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/chanfunc"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/chanonce"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/chanstringer"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/chmodreflect"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/clientswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/clienttransport"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/closureescape"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/constbranch"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/convalias"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/convsteps"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/convvta"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctorcache"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxafter"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxappendsend"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxcause"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxcell"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxchain"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxdefersend"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxdynamic"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxfunc"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxgosend"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxhelper"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxkept"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxmap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxparent"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxsend"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxslicesend"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxtuple"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/decokeep"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/elemptr"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/elemswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/embedaddr"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/embedbound"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/embedinit"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/embedswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/embedwrap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/errorsas"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/errvar"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/errwrap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/expvarcmd"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/expvarfunc"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/fddup"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/fdfcntl"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/fdmmap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/fdsendfile"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/fieldswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/flagvar"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/fmtfield"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/fmtint32"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/freshphi"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/funcinit"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/genericelem"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/genericfield"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/genericfunc"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/genericlocal"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/genericreflect"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/globalcopy"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/globalfunc"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/globalinit"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/globalptr"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/globalshared"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/gobdecode"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/gobiface"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/gobstd"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/heapchain"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/heapdump"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/heapfunc"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/heapiface"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/helperparam"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/hookalias"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/hookshared"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/httpdir"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ifaceconv"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ifaceswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/injectswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/iocopywriteto"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ioctl"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/iterpull"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/jsonelem"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/jsonfield"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/jsonkey"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/jsonmarshal"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/jsonuint8"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/linknamevar"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/logaliasvar"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/logdefault"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/logdefaultvar"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/logifaceprog"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/logifacevar"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/logswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/makefunc"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/mapswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/middleware"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/multipart"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/muxbound"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/muxfield"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/muxiface"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/muxnested"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/muxstore"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/muxvar"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/mwfield"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/namedbasic"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/oncedo"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/oncefunc"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/optfield"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/optkeep"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/optswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/optswrite"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/osargs"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/pipeswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/pkgvaropt"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/pkgvarreflect"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/pkgvarreflectfn"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/pkgvarreflectvar"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/pkgvarset"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/pkgvarwhole"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/poolcell"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/poolnew"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/poolput"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/poolspread"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/poolswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ptrload"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/readerkeep"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/recvswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/reflectaddr"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/reflectchan"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/reflectconvert"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/reflectfield"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/reflectfuncin"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/reflectfuncout"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/reflectmethods"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/reflectnew"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/reflectset"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/reflectsliceat"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/reflectstd"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/regswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/selectsend"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/selectvta"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/servefile"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/servemux"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/slogdefault"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/sqlregister"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/sqlscan"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/startupjson"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/startupreflect"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/startuptmpl"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/stringerkeep"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/svcalias"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/svcclosure"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/svcreflect"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/syncmapaddr"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/syncmapfunc"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/syncmapptr"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/syncmapswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/timerreset"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/tlskeypair"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/tmplbound"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/tmplctx"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/tmplfunc"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/tmplfuncarg"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/tmplhelper"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/tmpliface"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/tmplmethod"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/tmplmethodexpr"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/uniqueaddr"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/uniqueval"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/unsafeslice"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/unsafestring"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/wrapescape"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/xmlmarshal"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/xmlunmarshal"
	"github.com/toolreg/toolreg/tool"
)

// probe is a hostile tool of testdata/probes: it declares nothing, does
// want, and its Execute returns evidence that it did.
type probe struct {
	name     string
	want     tool.Capability
	evidence string // what Execute's result must contain ("SECRET" is $AUDIT_PROBE)
	run      func(ctx context.Context, dir string) (string, error)
}

// probes are the soundness corpus; TestProbesRun runs each, TestTogether
// audits them.
var probes = []probe{
	{"benchsetenv", benchsetenv.Want, "probe-set", func(ctx context.Context, dir string) (string, error) {
		return benchsetenv.Tool{}.Execute(ctx, benchsetenv.Args{Dir: dir})
	}},
	{"benchtempdir", benchtempdir.Want, "written marker", func(ctx context.Context, dir string) (string, error) {
		return benchtempdir.Tool{}.Execute(ctx, benchtempdir.Args{Dir: dir})
	}},
	{"chmodreflect", chmodreflect.Want, "-rw-r-----", func(ctx context.Context, dir string) (string, error) {
		return chmodreflect.Tool{}.Execute(ctx, chmodreflect.Args{Dir: dir})
	}},
	{"fmtfield", fmtfield.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return fmtfield.Tool{}.Execute(ctx, fmtfield.Args{Dir: dir})
	}},
	{"funcinit", funcinit.Want, "started", func(ctx context.Context, dir string) (string, error) {
		return funcinit.Tool{}.Execute(ctx, funcinit.Args{Dir: dir})
	}},
	{"gobdecode", gobdecode.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return gobdecode.Tool{}.Execute(ctx, gobdecode.Args{Dir: dir})
	}},
	{"ioctl", ioctl.Want, "ioctl 3", func(ctx context.Context, dir string) (string, error) {
		return ioctl.Tool{}.Execute(ctx, ioctl.Args{Dir: dir})
	}},
	{"jsonelem", jsonelem.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return jsonelem.Tool{}.Execute(ctx, jsonelem.Args{Dir: dir})
	}},
	{"jsonfield", jsonfield.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return jsonfield.Tool{}.Execute(ctx, jsonfield.Args{Dir: dir})
	}},
	{"jsonkey", jsonkey.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return jsonkey.Tool{}.Execute(ctx, jsonkey.Args{Dir: dir})
	}},
	{"jsonmarshal", jsonmarshal.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return jsonmarshal.Tool{}.Execute(ctx, jsonmarshal.Args{Dir: dir})
	}},
	{"reflectfield", reflectfield.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return reflectfield.Tool{}.Execute(ctx, reflectfield.Args{Dir: dir})
	}},
	{"reflectmethods", reflectmethods.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return reflectmethods.Tool{}.Execute(ctx, reflectmethods.Args{Dir: dir})
	}},
	{"reflectnew", reflectnew.Want, "probe-exec", func(ctx context.Context, dir string) (string, error) {
		return reflectnew.Tool{}.Execute(ctx, reflectnew.Args{Dir: dir})
	}},
	{"tmplfunc", tmplfunc.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return tmplfunc.Tool{}.Execute(ctx, tmplfunc.Args{Dir: dir})
	}},
	{"tmplmethod", tmplmethod.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return tmplmethod.Tool{}.Execute(ctx, tmplmethod.Args{Dir: dir})
	}},
	{"xmlmarshal", xmlmarshal.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return xmlmarshal.Tool{}.Execute(ctx, xmlmarshal.Args{Dir: dir})
	}},
	{"xmlunmarshal", xmlunmarshal.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return xmlunmarshal.Tool{}.Execute(ctx, xmlunmarshal.Args{Dir: dir})
	}},
	{"tmplbound", tmplbound.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return tmplbound.Tool{}.Execute(ctx, tmplbound.Args{Dir: dir})
	}},
	{"tmplmethodexpr", tmplmethodexpr.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return tmplmethodexpr.Tool{}.Execute(ctx, tmplmethodexpr.Args{Dir: dir})
	}},
	{"tmpliface", tmpliface.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return tmpliface.Tool{}.Execute(ctx, tmpliface.Args{Dir: dir})
	}},
	{"tmplctx", tmplctx.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return tmplctx.Tool{}.Execute(ctx, tmplctx.Args{Dir: dir})
	}},
	{"reflectfuncin", reflectfuncin.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return reflectfuncin.Tool{}.Execute(ctx, reflectfuncin.Args{Dir: dir})
	}},
	{"reflectfuncout", reflectfuncout.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return reflectfuncout.Tool{}.Execute(ctx, reflectfuncout.Args{Dir: dir})
	}},
	{"unsafeslice", unsafeslice.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return unsafeslice.Tool{}.Execute(ctx, unsafeslice.Args{Dir: dir})
	}},
	{"unsafestring", unsafestring.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return unsafestring.Tool{}.Execute(ctx, unsafestring.Args{Dir: dir})
	}},
	{"genericelem", genericelem.Want, "probe-exec", func(ctx context.Context, dir string) (string, error) {
		return genericelem.Tool{}.Execute(ctx, genericelem.Args{Dir: dir})
	}},
	{"genericfield", genericfield.Want, "probe-exec", func(ctx context.Context, dir string) (string, error) {
		return genericfield.Tool{}.Execute(ctx, genericfield.Args{Dir: dir})
	}},
	{"genericfunc", genericfunc.Want, "probe-exec", func(ctx context.Context, dir string) (string, error) {
		return genericfunc.Tool{}.Execute(ctx, genericfunc.Args{Dir: dir})
	}},
	{"genericlocal", genericlocal.Want, "probe-exec", func(ctx context.Context, dir string) (string, error) {
		return genericlocal.Tool{}.Execute(ctx, genericlocal.Args{Dir: dir})
	}},
	{"genericreflect", genericreflect.Want, "probe-exec", func(ctx context.Context, dir string) (string, error) {
		return genericreflect.Tool{}.Execute(ctx, genericreflect.Args{Dir: dir})
	}},
	// The asserted value comes from the standard library: the audit
	// cannot narrow the assertion to the types it traces.
	{"assertctx", assertctx.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return assertctx.Tool{}.Execute(ctx, assertctx.Args{Dir: dir})
	}},
	{"assertescape", assertescape.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return assertescape.Tool{}.Execute(ctx, assertescape.Args{Dir: dir})
	}},
	{"assertrange", assertrange.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return assertrange.Tool{}.Execute(ctx, assertrange.Args{Dir: dir})
	}},
	{"assertlazy", assertlazy.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return assertlazy.Tool{}.Execute(ctx, assertlazy.Args{Dir: dir})
	}},
	{"assertlazygen", assertlazygen.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return assertlazygen.Tool{}.Execute(ctx, assertlazygen.Args{Dir: dir})
	}},
	{"assertalias", assertalias.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return assertalias.Tool{}.Execute(ctx, assertalias.Args{Dir: dir})
	}},
	{"jsonuint8", jsonuint8.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return jsonuint8.Tool{}.Execute(ctx, jsonuint8.Args{Dir: dir})
	}},
	{"fmtint32", fmtint32.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return fmtint32.Tool{}.Execute(ctx, fmtint32.Args{Dir: dir})
	}},
	{"assertrecover", assertrecover.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return assertrecover.Tool{}.Execute(ctx, assertrecover.Args{Dir: dir})
	}},
	{"assertgoexit", assertgoexit.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return assertgoexit.Tool{}.Execute(ctx, assertgoexit.Args{Dir: dir})
	}},
	{"astype", astype.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return astype.Tool{}.Execute(ctx, astype.Args{Dir: dir})
	}},
	{"reflectset", reflectset.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return reflectset.Tool{}.Execute(ctx, reflectset.Args{Dir: dir})
	}},
	{"freshphi", freshphi.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return freshphi.Tool{}.Execute(ctx, freshphi.Args{Dir: dir})
	}},
	{"gobiface", gobiface.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return gobiface.Tool{}.Execute(ctx, gobiface.Args{Dir: dir})
	}},
	{"reflectconvert", reflectconvert.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return reflectconvert.Tool{}.Execute(ctx, reflectconvert.Args{Dir: dir})
	}},
	{"chanfunc", chanfunc.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return chanfunc.Tool{}.Execute(ctx, chanfunc.Args{Dir: dir})
	}},
	{"poolnew", poolnew.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return poolnew.Tool{}.Execute(ctx, poolnew.Args{Dir: dir})
	}},
	{"tmplfuncarg", tmplfuncarg.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return tmplfuncarg.Tool{}.Execute(ctx, tmplfuncarg.Args{Dir: dir})
	}},
	{"reflectsliceat", reflectsliceat.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return reflectsliceat.Tool{}.Execute(ctx, reflectsliceat.Args{Dir: dir})
	}},
	{"reflectstd", reflectstd.Want, "-rw-r-----", func(ctx context.Context, dir string) (string, error) {
		return reflectstd.Tool{}.Execute(ctx, reflectstd.Args{Dir: dir})
	}},
	// A type of the program made into a non-empty interface (io.Reader),
	// whose other method the standard library asserts it to (io.Copy's
	// io.WriterTo).
	{"iocopywriteto", iocopywriteto.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return iocopywriteto.Tool{}.Execute(ctx, iocopywriteto.Args{Dir: dir})
	}},
	{"errorsas", errorsas.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return errorsas.Tool{}.Execute(ctx, errorsas.Args{Dir: dir})
	}},
	{"namedbasic", namedbasic.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return namedbasic.Tool{}.Execute(ctx, namedbasic.Args{Dir: dir})
	}},
	{"linknamevar", linknamevar.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return linknamevar.Tool{}.Execute(ctx, linknamevar.Args{Dir: dir})
	}},
	{"osargs", osargs.Want, "-test.", func(ctx context.Context, dir string) (string, error) {
		return osargs.Tool{}.Execute(ctx, osargs.Args{Dir: dir})
	}},
	{"argsvar", argsvar.Want, "-test.", func(ctx context.Context, dir string) (string, error) {
		return argsvar.Tool{}.Execute(ctx, argsvar.Args{Dir: dir})
	}},
	{"constbranch", constbranch.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return constbranch.Tool{}.Execute(ctx, constbranch.Args{Dir: dir})
	}},
	{"optswrite", optswrite.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return optswrite.Tool{}.Execute(ctx, optswrite.Args{Dir: dir})
	}},
	{"ctorcache", ctorcache.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ctorcache.Setter{}).Execute(ctx, ctorcache.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ctorcache.Tool{}.Execute(ctx, ctorcache.Args{Dir: dir})
	}},
	{"optswap", optswap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (optswap.Setter{}).Execute(ctx, optswap.Args{Dir: dir}); err != nil {
			return "", err
		}
		return optswap.Tool{}.Execute(ctx, optswap.Args{Dir: dir})
	}},
	{"svcalias", svcalias.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (svcalias.Setter{}).Execute(ctx, svcalias.Args{Dir: dir}); err != nil {
			return "", err
		}
		return svcalias.Tool{}.Execute(ctx, svcalias.Args{Dir: dir})
	}},
	{"svcclosure", svcclosure.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (svcclosure.Setter{}).Execute(ctx, svcclosure.Args{Dir: dir}); err != nil {
			return "", err
		}
		return svcclosure.Tool{}.Execute(ctx, svcclosure.Args{Dir: dir})
	}},
	{"buildkeep", buildkeep.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (buildkeep.Setter{}).Execute(ctx, buildkeep.Args{Dir: dir}); err != nil {
			return "", err
		}
		return buildkeep.Tool{}.Execute(ctx, buildkeep.Args{Dir: dir})
	}},
	{"cfgaddr", cfgaddr.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (cfgaddr.Setter{}).Execute(ctx, cfgaddr.Args{Dir: dir}); err != nil {
			return "", err
		}
		return cfgaddr.Tool{}.Execute(ctx, cfgaddr.Args{Dir: dir})
	}},
	{"ctxappendsend", ctxappendsend.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ctxappendsend.Setter{}).Execute(ctx, ctxappendsend.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ctxappendsend.Tool{}.Execute(ctx, ctxappendsend.Args{Dir: dir})
	}},
	{"ctxslicesend", ctxslicesend.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ctxslicesend.Setter{}).Execute(ctx, ctxslicesend.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ctxslicesend.Tool{}.Execute(ctx, ctxslicesend.Args{Dir: dir})
	}},
	{"ctxdefersend", ctxdefersend.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ctxdefersend.Setter{}).Execute(ctx, ctxdefersend.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ctxdefersend.Tool{}.Execute(ctx, ctxdefersend.Args{Dir: dir})
	}},
	{"ctxgosend", ctxgosend.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ctxgosend.Setter{}).Execute(ctx, ctxgosend.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ctxgosend.Tool{}.Execute(ctx, ctxgosend.Args{Dir: dir})
	}},
	{"reflectchan", reflectchan.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (reflectchan.Setter{}).Execute(ctx, reflectchan.Args{Dir: dir}); err != nil {
			return "", err
		}
		return reflectchan.Tool{}.Execute(ctx, reflectchan.Args{Dir: dir})
	}},
	{"uniqueaddr", uniqueaddr.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (uniqueaddr.Setter{}).Execute(ctx, uniqueaddr.Args{Dir: dir}); err != nil {
			return "", err
		}
		return uniqueaddr.Tool{}.Execute(ctx, uniqueaddr.Args{Dir: dir})
	}},
	{"atomicaddr", atomicaddr.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (atomicaddr.Setter{}).Execute(ctx, atomicaddr.Args{Dir: dir}); err != nil {
			return "", err
		}
		return atomicaddr.Tool{}.Execute(ctx, atomicaddr.Args{Dir: dir})
	}},
	{"syncmapptr", syncmapptr.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (syncmapptr.Setter{}).Execute(ctx, syncmapptr.Args{Dir: dir}); err != nil {
			return "", err
		}
		return syncmapptr.Tool{}.Execute(ctx, syncmapptr.Args{Dir: dir})
	}},
	{"syncmapaddr", syncmapaddr.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (syncmapaddr.Setter{}).Execute(ctx, syncmapaddr.Args{Dir: dir}); err != nil {
			return "", err
		}
		return syncmapaddr.Tool{}.Execute(ctx, syncmapaddr.Args{Dir: dir})
	}},
	{"chanstringer", chanstringer.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (chanstringer.Setter{}).Execute(ctx, chanstringer.Args{Dir: dir}); err != nil {
			return "", err
		}
		return chanstringer.Tool{}.Execute(ctx, chanstringer.Args{Dir: dir})
	}},
	{"chanonce", chanonce.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (chanonce.Setter{}).Execute(ctx, chanonce.Args{Dir: dir}); err != nil {
			return "", err
		}
		return chanonce.Tool{}.Execute(ctx, chanonce.Args{Dir: dir})
	}},
	{"hookalias", hookalias.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (hookalias.Setter{}).Execute(ctx, hookalias.Args{Dir: dir}); err != nil {
			return "", err
		}
		return hookalias.Tool{}.Execute(ctx, hookalias.Args{Dir: dir})
	}},
	{"hookshared", hookshared.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (hookshared.Setter{}).Execute(ctx, hookshared.Args{Dir: dir}); err != nil {
			return "", err
		}
		return hookshared.Tool{}.Execute(ctx, hookshared.Args{Dir: dir})
	}},
	{"ctxkept", ctxkept.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ctxkept.Setter{}).Execute(ctx, ctxkept.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ctxkept.Tool{}.Execute(ctx, ctxkept.Args{Dir: dir})
	}},
	{"ctxsend", ctxsend.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ctxsend.Setter{}).Execute(ctx, ctxsend.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ctxsend.Tool{}.Execute(ctx, ctxsend.Args{Dir: dir})
	}},
	{"errvar", errvar.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		errLength := hex.ErrLength
		defer func() { hex.ErrLength = errLength }()
		if _, err := (errvar.Setter{}).Execute(ctx, errvar.Args{Dir: dir}); err != nil {
			return "", err
		}
		return errvar.Tool{}.Execute(ctx, errvar.Args{Dir: dir})
	}},
	{"errwrap", errwrap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (errwrap.Setter{}).Execute(ctx, errwrap.Args{Dir: dir}); err != nil {
			return "", err
		}
		return errwrap.Tool{}.Execute(ctx, errwrap.Args{Dir: dir})
	}},
	{"ctxcause", ctxcause.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ctxcause.Setter{}).Execute(ctx, ctxcause.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ctxcause.Tool{}.Execute(ctx, ctxcause.Args{Dir: dir})
	}},
	{"chanaddr", chanaddr.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (chanaddr.Setter{}).Execute(ctx, chanaddr.Args{Dir: dir}); err != nil {
			return "", err
		}
		return chanaddr.Tool{}.Execute(ctx, chanaddr.Args{Dir: dir})
	}},
	{"boundload", boundload.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (boundload.Setter{}).Execute(ctx, boundload.Args{Dir: dir}); err != nil {
			return "", err
		}
		return boundload.Tool{}.Execute(ctx, boundload.Args{Dir: dir})
	}},
	{"makefunc", makefunc.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (makefunc.Setter{}).Execute(ctx, makefunc.Args{Dir: dir}); err != nil {
			return "", err
		}
		return makefunc.Tool{}.Execute(ctx, makefunc.Args{Dir: dir})
	}},
	{"elemptr", elemptr.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (elemptr.Setter{}).Execute(ctx, elemptr.Args{Dir: dir}); err != nil {
			return "", err
		}
		return elemptr.Tool{}.Execute(ctx, elemptr.Args{Dir: dir})
	}},
	{"reflectaddr", reflectaddr.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (reflectaddr.Setter{}).Execute(ctx, reflectaddr.Args{Dir: dir}); err != nil {
			return "", err
		}
		return reflectaddr.Tool{}.Execute(ctx, reflectaddr.Args{Dir: dir})
	}},
	{"convvta", convvta.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (convvta.Setter{}).Execute(ctx, convvta.Args{Dir: dir}); err != nil {
			return "", err
		}
		return convvta.Tool{}.Execute(ctx, convvta.Args{Dir: dir})
	}},
	{"convsteps", convsteps.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (convsteps.Setter{}).Execute(ctx, convsteps.Args{Dir: dir}); err != nil {
			return "", err
		}
		return convsteps.Tool{}.Execute(ctx, convsteps.Args{Dir: dir})
	}},
	{"convalias", convalias.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (convalias.Setter{}).Execute(ctx, convalias.Args{Dir: dir}); err != nil {
			return "", err
		}
		return convalias.Tool{}.Execute(ctx, convalias.Args{Dir: dir})
	}},
	{"selectsend", selectsend.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (selectsend.Setter{}).Execute(ctx, selectsend.Args{Dir: dir}); err != nil {
			return "", err
		}
		return selectsend.Tool{}.Execute(ctx, selectsend.Args{Dir: dir})
	}},
	{"ctxtuple", ctxtuple.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ctxtuple.Setter{}).Execute(ctx, ctxtuple.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ctxtuple.Tool{}.Execute(ctx, ctxtuple.Args{Dir: dir})
	}},
	{"iterpull", iterpull.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (iterpull.Setter{}).Execute(ctx, iterpull.Args{Dir: dir}); err != nil {
			return "", err
		}
		return iterpull.Tool{}.Execute(ctx, iterpull.Args{Dir: dir})
	}},
	{"readerkeep", readerkeep.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (readerkeep.Setter{}).Execute(ctx, readerkeep.Args{Dir: dir}); err != nil {
			return "", err
		}
		return readerkeep.Tool{}.Execute(ctx, readerkeep.Args{Dir: dir})
	}},
	{"stringerkeep", stringerkeep.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (stringerkeep.Setter{}).Execute(ctx, stringerkeep.Args{Dir: dir}); err != nil {
			return "", err
		}
		return stringerkeep.Tool{}.Execute(ctx, stringerkeep.Args{Dir: dir})
	}},
	{"uniqueval", uniqueval.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (uniqueval.Setter{}).Execute(ctx, uniqueval.Args{Dir: dir}); err != nil {
			return "", err
		}
		return uniqueval.Tool{}.Execute(ctx, uniqueval.Args{Dir: dir})
	}},
	{"selectvta", selectvta.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (selectvta.Setter{}).Execute(ctx, selectvta.Args{Dir: dir}); err != nil {
			return "", err
		}
		return selectvta.Tool{}.Execute(ctx, selectvta.Args{Dir: dir})
	}},
	{"ptrload", ptrload.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ptrload.Setter{}).Execute(ctx, ptrload.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ptrload.Tool{}.Execute(ctx, ptrload.Args{Dir: dir})
	}},
	{"poolput", poolput.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (poolput.Setter{}).Execute(ctx, poolput.Args{Dir: dir}); err != nil {
			return "", err
		}
		return poolput.Tool{}.Execute(ctx, poolput.Args{Dir: dir})
	}},
	{"oncedo", oncedo.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (oncedo.Setter{}).Execute(ctx, oncedo.Args{Dir: dir}); err != nil {
			return "", err
		}
		return oncedo.Tool{}.Execute(ctx, oncedo.Args{Dir: dir})
	}},
	{"muxstore", muxstore.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		mux := http.DefaultServeMux
		defer func() { http.DefaultServeMux = mux }()
		if _, err := (muxstore.Setter{}).Execute(ctx, muxstore.Args{Dir: dir}); err != nil {
			return "", err
		}
		return muxstore.Tool{}.Execute(ctx, muxstore.Args{Dir: dir})
	}},
	{"ifaceconv", ifaceconv.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ifaceconv.Setter{}).Execute(ctx, ifaceconv.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ifaceconv.Tool{}.Execute(ctx, ifaceconv.Args{Dir: dir})
	}},
	{"ctxparent", ctxparent.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ctxparent.Setter{}).Execute(ctx, ctxparent.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ctxparent.Tool{}.Execute(ctx, ctxparent.Args{Dir: dir})
	}},
	{"ctxchain", ctxchain.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ctxchain.Setter{}).Execute(ctx, ctxchain.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ctxchain.Tool{}.Execute(ctx, ctxchain.Args{Dir: dir})
	}},
	{"arrconv", arrconv.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (arrconv.Setter{}).Execute(ctx, arrconv.Args{Dir: dir}); err != nil {
			return "", err
		}
		return arrconv.Tool{}.Execute(ctx, arrconv.Args{Dir: dir})
	}},
	{"appendkeep", appendkeep.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (appendkeep.Setter{}).Execute(ctx, appendkeep.Args{Dir: dir}); err != nil {
			return "", err
		}
		return appendkeep.Tool{}.Execute(ctx, appendkeep.Args{Dir: dir})
	}},
	{"poolcell", poolcell.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (poolcell.Setter{}).Execute(ctx, poolcell.Args{Dir: dir}); err != nil {
			return "", err
		}
		return poolcell.Tool{}.Execute(ctx, poolcell.Args{Dir: dir})
	}},
	{"poolspread", poolspread.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (poolspread.Setter{}).Execute(ctx, poolspread.Args{Dir: dir}); err != nil {
			return "", err
		}
		return poolspread.Tool{}.Execute(ctx, poolspread.Args{Dir: dir})
	}},
	{"poolswap", poolswap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (poolswap.Setter{}).Execute(ctx, poolswap.Args{Dir: dir}); err != nil {
			return "", err
		}
		return poolswap.Tool{}.Execute(ctx, poolswap.Args{Dir: dir})
	}},
	{"embedinit", embedinit.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (embedinit.Setter{}).Execute(ctx, embedinit.Args{Dir: dir}); err != nil {
			return "", err
		}
		return embedinit.Tool{}.Execute(ctx, embedinit.Args{Dir: dir})
	}},
	{"embedaddr", embedaddr.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (embedaddr.Setter{}).Execute(ctx, embedaddr.Args{Dir: dir}); err != nil {
			return "", err
		}
		return embedaddr.Tool{}.Execute(ctx, embedaddr.Args{Dir: dir})
	}},
	{"pkgvarset", pkgvarset.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (pkgvarset.Setter{}).Execute(ctx, pkgvarset.Args{Dir: dir}); err != nil {
			return "", err
		}
		return pkgvarset.Tool{}.Execute(ctx, pkgvarset.Args{Dir: dir})
	}},
	{"pkgvaropt", pkgvaropt.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (pkgvaropt.Setter{}).Execute(ctx, pkgvaropt.Args{Dir: dir}); err != nil {
			return "", err
		}
		return pkgvaropt.Tool{}.Execute(ctx, pkgvaropt.Args{Dir: dir})
	}},
	{"pkgvarwhole", pkgvarwhole.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (pkgvarwhole.Setter{}).Execute(ctx, pkgvarwhole.Args{Dir: dir}); err != nil {
			return "", err
		}
		return pkgvarwhole.Tool{}.Execute(ctx, pkgvarwhole.Args{Dir: dir})
	}},
	{"pkgvarreflect", pkgvarreflect.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (pkgvarreflect.Setter{}).Execute(ctx, pkgvarreflect.Args{Dir: dir}); err != nil {
			return "", err
		}
		return pkgvarreflect.Tool{}.Execute(ctx, pkgvarreflect.Args{Dir: dir})
	}},
	{"pkgvarreflectfn", pkgvarreflectfn.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (pkgvarreflectfn.Setter{}).Execute(ctx, pkgvarreflectfn.Args{Dir: dir}); err != nil {
			return "", err
		}
		return pkgvarreflectfn.Tool{}.Execute(ctx, pkgvarreflectfn.Args{Dir: dir})
	}},
	{"pkgvarreflectvar", pkgvarreflectvar.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (pkgvarreflectvar.Maker{}).Execute(ctx, pkgvarreflectvar.Args{Dir: dir}); err != nil {
			return "", err
		}
		if _, err := (pkgvarreflectvar.Setter{}).Execute(ctx, pkgvarreflectvar.Args{Dir: dir}); err != nil {
			return "", err
		}
		return pkgvarreflectvar.Tool{}.Execute(ctx, pkgvarreflectvar.Args{Dir: dir})
	}},
	{"svcreflect", svcreflect.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (svcreflect.Setter{}).Execute(ctx, svcreflect.Args{Dir: dir}); err != nil {
			return "", err
		}
		return svcreflect.Tool{}.Execute(ctx, svcreflect.Args{Dir: dir})
	}},
	{"pipeswap", pipeswap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (pipeswap.Setter{}).Execute(ctx, pipeswap.Args{Dir: dir}); err != nil {
			return "", err
		}
		return pipeswap.Tool{}.Execute(ctx, pipeswap.Args{Dir: dir})
	}},
	{"decokeep", decokeep.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (decokeep.Setter{}).Execute(ctx, decokeep.Args{Dir: dir}); err != nil {
			return "", err
		}
		return decokeep.Tool{}.Execute(ctx, decokeep.Args{Dir: dir})
	}},
	{"embedswap", embedswap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (embedswap.Setter{}).Execute(ctx, embedswap.Args{Dir: dir}); err != nil {
			return "", err
		}
		return embedswap.Tool{}.Execute(ctx, embedswap.Args{Dir: dir})
	}},
	{"embedwrap", embedwrap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (embedwrap.Setter{}).Execute(ctx, embedwrap.Args{Dir: dir}); err != nil {
			return "", err
		}
		return embedwrap.Tool{}.Execute(ctx, embedwrap.Args{Dir: dir})
	}},
	{"embedbound", embedbound.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (embedbound.Setter{}).Execute(ctx, embedbound.Args{Dir: dir}); err != nil {
			return "", err
		}
		return embedbound.Tool{}.Execute(ctx, embedbound.Args{Dir: dir})
	}},
	{"injectswap", injectswap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (injectswap.Setter{}).Execute(ctx, injectswap.Args{Dir: dir}); err != nil {
			return "", err
		}
		return injectswap.Tool{}.Execute(ctx, injectswap.Args{Dir: dir})
	}},
	{"ifaceswap", ifaceswap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ifaceswap.Setter{}).Execute(ctx, ifaceswap.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ifaceswap.Tool{}.Execute(ctx, ifaceswap.Args{Dir: dir})
	}},
	{"optfield", optfield.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (optfield.Setter{}).Execute(ctx, optfield.Args{Dir: dir}); err != nil {
			return "", err
		}
		return optfield.Tool{}.Execute(ctx, optfield.Args{Dir: dir})
	}},
	{"optkeep", optkeep.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (optkeep.Setter{}).Execute(ctx, optkeep.Args{Dir: dir}); err != nil {
			return "", err
		}
		return optkeep.Tool{}.Execute(ctx, optkeep.Args{Dir: dir})
	}},
	{"cellkeep", cellkeep.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (cellkeep.Setter{}).Execute(ctx, cellkeep.Args{Dir: dir}); err != nil {
			return "", err
		}
		return cellkeep.Tool{}.Execute(ctx, cellkeep.Args{Dir: dir})
	}},
	{"syncmapswap", syncmapswap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (syncmapswap.Setter{}).Execute(ctx, syncmapswap.Args{Dir: dir}); err != nil {
			return "", err
		}
		return syncmapswap.Tool{}.Execute(ctx, syncmapswap.Args{Dir: dir})
	}},
	{"regswap", regswap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (regswap.Setter{}).Execute(ctx, regswap.Args{Dir: dir}); err != nil {
			return "", err
		}
		return regswap.Tool{}.Execute(ctx, regswap.Args{Dir: dir})
	}},
	{"recvswap", recvswap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (recvswap.Setter{}).Execute(ctx, recvswap.Args{Dir: dir}); err != nil {
			return "", err
		}
		return recvswap.Tool{}.Execute(ctx, recvswap.Args{Dir: dir})
	}},
	{"tmplhelper", tmplhelper.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return tmplhelper.Tool{}.Execute(ctx, tmplhelper.Args{Dir: dir})
	}},
	{"mapswap", mapswap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (mapswap.Setter{}).Execute(ctx, mapswap.Args{Dir: dir}); err != nil {
			return "", err
		}
		return mapswap.Tool{}.Execute(ctx, mapswap.Args{Dir: dir})
	}},
	{"elemswap", elemswap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (elemswap.Setter{}).Execute(ctx, elemswap.Args{Dir: dir}); err != nil {
			return "", err
		}
		return elemswap.Tool{}.Execute(ctx, elemswap.Args{Dir: dir})
	}},
	{"fieldswap", fieldswap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (fieldswap.Setter{}).Execute(ctx, fieldswap.Args{Dir: dir}); err != nil {
			return "", err
		}
		return fieldswap.Tool{}.Execute(ctx, fieldswap.Args{Dir: dir})
	}},
	{"wrapescape", wrapescape.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (wrapescape.Setter{}).Execute(ctx, wrapescape.Args{Dir: dir}); err != nil {
			return "", err
		}
		return wrapescape.Tool{}.Execute(ctx, wrapescape.Args{Dir: dir})
	}},
	{"gobstd", gobstd.Want, "package audit", func(ctx context.Context, dir string) (string, error) {
		return gobstd.Tool{}.Execute(ctx, gobstd.Args{Dir: dir})
	}},
	{"sqlscan", sqlscan.Want, "package audit", func(ctx context.Context, dir string) (string, error) {
		return sqlscan.Tool{}.Execute(ctx, sqlscan.Args{Dir: dir})
	}},
	// A package's rule (network for net/http and crypto/tls) does not
	// stand for the files its functions open.
	{"httpdir", httpdir.Want, "package audit", func(ctx context.Context, dir string) (string, error) {
		return httpdir.Tool{}.Execute(ctx, httpdir.Args{Dir: dir})
	}},
	{"servefile", servefile.Want, "package audit", func(ctx context.Context, dir string) (string, error) {
		return servefile.Tool{}.Execute(ctx, servefile.Args{Dir: dir})
	}},
	{"tlskeypair", tlskeypair.Want, "failed to find any PEM data", func(ctx context.Context, dir string) (string, error) {
		return tlskeypair.Tool{}.Execute(ctx, tlskeypair.Args{Dir: dir})
	}},
	{"multipart", multipart.Want, "on disk: written to disk", func(ctx context.Context, dir string) (string, error) {
		return multipart.Tool{}.Execute(ctx, multipart.Args{Dir: dir})
	}},
	// Assembly gives a function variable its value, code no Go names.
	{"asmdata", asmdata.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return asmdata.Tool{}.Execute(ctx, asmdata.Args{Dir: dir})
	}},
	// A function kept in a package variable, which the tool hands to
	// the standard library.
	{"globalfunc", globalfunc.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return globalfunc.Tool{}.Execute(ctx, globalfunc.Args{Dir: dir})
	}},
	{"globalcopy", globalcopy.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return globalcopy.Tool{}.Execute(ctx, globalcopy.Args{Dir: dir})
	}},
	{"globalinit", globalinit.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return globalinit.Tool{}.Execute(ctx, globalinit.Args{Dir: dir})
	}},
	{"globalptr", globalptr.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return globalptr.Tool{}.Execute(ctx, globalptr.Args{Dir: dir})
	}},
	// A function or an interface kept in a struct, a map or a slice on
	// the heap, which the tool hands to the standard library.
	{"heapfunc", heapfunc.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return heapfunc.Tool{}.Execute(ctx, heapfunc.Args{Dir: dir})
	}},
	{"heapiface", heapiface.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return heapiface.Tool{}.Execute(ctx, heapiface.Args{Dir: dir})
	}},
	{"heapchain", heapchain.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return heapchain.Tool{}.Execute(ctx, heapchain.Args{Dir: dir})
	}},
	{"atomicfunc", atomicfunc.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return atomicfunc.Tool{}.Execute(ctx, atomicfunc.Args{Dir: dir})
	}},
	{"ctxfunc", ctxfunc.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return ctxfunc.Tool{}.Execute(ctx, ctxfunc.Args{Dir: dir})
	}},
	{"syncmapfunc", syncmapfunc.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return syncmapfunc.Tool{}.Execute(ctx, syncmapfunc.Args{Dir: dir})
	}},
	{"anyslicefunc", anyslicefunc.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return anyslicefunc.Tool{}.Execute(ctx, anyslicefunc.Args{Dir: dir})
	}},
	{"globalshared", globalshared.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return globalshared.Tool{}.Execute(ctx, globalshared.Args{Dir: dir})
	}},
	// A helper's func parameter, given a function another tool kept.
	{"helperparam", helperparam.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (helperparam.Setter{}).Execute(ctx, helperparam.Args{Dir: dir}); err != nil {
			return "", err
		}
		return helperparam.Tool{}.Execute(ctx, helperparam.Args{Dir: dir})
	}},
	// A closure that calls what it captured, made and kept by another
	// tool, called by one that never ran the code that made it.
	{"closureescape", closureescape.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (closureescape.Setter{}).Execute(ctx, closureescape.Args{Dir: dir}); err != nil {
			return "", err
		}
		return closureescape.Tool{}.Execute(ctx, closureescape.Args{Dir: dir})
	}},
	// Descriptors the tool did not open, by number: the process's
	// own files (TestProbesRun holds secret open for reading and victim
	// for writing).
	{"fddup", fddup.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return fddup.Tool{}.Execute(ctx, fddup.Args{Dir: dir})
	}},
	{"fdfcntl", fdfcntl.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return fdfcntl.Tool{}.Execute(ctx, fdfcntl.Args{Dir: dir})
	}},
	{"fdmmap", fdmmap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return fdmmap.Tool{}.Execute(ctx, fdmmap.Args{Dir: dir})
	}},
	{"fdsendfile", fdsendfile.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		return fdsendfile.Tool{}.Execute(ctx, fdsendfile.Args{Dir: dir})
	}},
	{"heapdump", heapdump.Want, "heap dumped into victim", func(ctx context.Context, dir string) (string, error) {
		return heapdump.Tool{}.Execute(ctx, heapdump.Args{Dir: dir})
	}},
	// What a package of the standard library publishes at start.
	{"expvarcmd", expvarcmd.Want, "-test.", func(ctx context.Context, dir string) (string, error) {
		return expvarcmd.Tool{}.Execute(ctx, expvarcmd.Args{Dir: dir})
	}},
	// A value another tool handed to the standard library, which keeps
	// it in its own package state and calls it for this one.
	{"servemux", servemux.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (servemux.Setter{}).Execute(ctx, servemux.Args{Dir: dir}); err != nil {
			return "", err
		}
		return servemux.Tool{}.Execute(ctx, servemux.Args{Dir: dir})
	}},
	{"logdefault", logdefault.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (logdefault.Setter{}).Execute(ctx, logdefault.Args{Dir: dir}); err != nil {
			return "", err
		}
		defer func() { log.SetOutput(os.Stderr) }()
		return logdefault.Tool{}.Execute(ctx, logdefault.Args{Dir: dir})
	}},
	// As logdefault, log.Default called through a variable: the Logger
	// may be log.std, which the types the audit loads need not declare.
	{"logdefaultvar", logdefaultvar.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (logdefaultvar.Setter{}).Execute(ctx, logdefaultvar.Args{Dir: dir}); err != nil {
			return "", err
		}
		defer func() { log.SetOutput(os.Stderr) }()
		return logdefaultvar.Tool{}.Execute(ctx, logdefaultvar.Args{Dir: dir})
	}},
	// As logdefaultvar, the Logger's type written through an alias
	// (found in review: the summary's spelling of log.std's type).
	{"logaliasvar", logaliasvar.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (logaliasvar.Setter{}).Execute(ctx, logaliasvar.Args{Dir: dir}); err != nil {
			return "", err
		}
		defer func() { log.SetOutput(os.Stderr) }()
		return logaliasvar.Tool{}.Execute(ctx, logaliasvar.Args{Dir: dir})
	}},
	// As logdefaultvar, the Logger taken by an interface (found in
	// review), and the program's own Logger so (logifaceprog).
	{"logifacevar", logifacevar.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (logifacevar.Setter{}).Execute(ctx, logifacevar.Args{Dir: dir}); err != nil {
			return "", err
		}
		defer func() { log.SetOutput(os.Stderr) }()
		return logifacevar.Tool{}.Execute(ctx, logifacevar.Args{Dir: dir})
	}},
	{"logifaceprog", logifaceprog.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (logifaceprog.Setter{}).Execute(ctx, logifaceprog.Args{Dir: dir}); err != nil {
			return "", err
		}
		return logifaceprog.Tool{}.Execute(ctx, logifaceprog.Args{Dir: dir})
	}},
	{"clienttransport", clienttransport.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (clienttransport.Setter{}).Execute(ctx, clienttransport.Args{Dir: dir}); err != nil {
			return "", err
		}
		defer func() { http.DefaultClient.Transport = nil }()
		return clienttransport.Tool{}.Execute(ctx, clienttransport.Args{Dir: dir})
	}},
	{"clientswap", clientswap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		old := http.DefaultClient
		if _, err := (clientswap.Setter{}).Execute(ctx, clientswap.Args{Dir: dir}); err != nil {
			return "", err
		}
		defer func() { http.DefaultClient = old }()
		return clientswap.Tool{}.Execute(ctx, clientswap.Args{Dir: dir})
	}},
	{"slogdefault", slogdefault.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		orig := slog.Default()
		if _, err := (slogdefault.Setter{}).Execute(ctx, slogdefault.Args{Dir: dir}); err != nil {
			return "", err
		}
		defer func() { slog.SetDefault(orig) }()
		return slogdefault.Tool{}.Execute(ctx, slogdefault.Args{Dir: dir})
	}},
	{"sqlregister", sqlregister.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (sqlregister.Setter{}).Execute(ctx, sqlregister.Args{Dir: dir}); err != nil {
			return "", err
		}
		return sqlregister.Tool{}.Execute(ctx, sqlregister.Args{Dir: dir})
	}},
	{"flagvar", flagvar.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (flagvar.Setter{}).Execute(ctx, flagvar.Args{Dir: dir}); err != nil {
			return "", err
		}
		return flagvar.Tool{}.Execute(ctx, flagvar.Args{Dir: dir})
	}},
	{"muxvar", muxvar.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (muxvar.Setter{}).Execute(ctx, muxvar.Args{Dir: dir}); err != nil {
			return "", err
		}
		return muxvar.Tool{}.Execute(ctx, muxvar.Args{Dir: dir})
	}},
	{"muxiface", muxiface.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (muxiface.Setter{}).Execute(ctx, muxiface.Args{Dir: dir}); err != nil {
			return "", err
		}
		return muxiface.Tool{}.Execute(ctx, muxiface.Args{Dir: dir})
	}},
	{"muxbound", muxbound.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (muxbound.Setter{}).Execute(ctx, muxbound.Args{Dir: dir}); err != nil {
			return "", err
		}
		return muxbound.Tool{}.Execute(ctx, muxbound.Args{Dir: dir})
	}},
	{"ctxafter", ctxafter.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ctxafter.Setter{}).Execute(ctx, ctxafter.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ctxafter.Tool{}.Execute(ctx, ctxafter.Args{Dir: dir})
	}},
	{"ctxcell", ctxcell.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ctxcell.Setter{}).Execute(ctx, ctxcell.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ctxcell.Tool{}.Execute(ctx, ctxcell.Args{Dir: dir})
	}},
	{"ctxhelper", ctxhelper.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ctxhelper.Setter{}).Execute(ctx, ctxhelper.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ctxhelper.Tool{}.Execute(ctx, ctxhelper.Args{Dir: dir})
	}},
	{"oncefunc", oncefunc.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (oncefunc.Setter{}).Execute(ctx, oncefunc.Args{Dir: dir}); err != nil {
			return "", err
		}
		return oncefunc.Tool{}.Execute(ctx, oncefunc.Args{Dir: dir})
	}},
	{"bufiowrap", bufiowrap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (bufiowrap.Setter{}).Execute(ctx, bufiowrap.Args{Dir: dir}); err != nil {
			return "", err
		}
		return bufiowrap.Tool{}.Execute(ctx, bufiowrap.Args{Dir: dir})
	}},
	{"expvarfunc", expvarfunc.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (expvarfunc.Setter{}).Execute(ctx, expvarfunc.Args{Dir: dir}); err != nil {
			return "", err
		}
		return expvarfunc.Tool{}.Execute(ctx, expvarfunc.Args{Dir: dir})
	}},
	{"muxfield", muxfield.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (muxfield.Setter{}).Execute(ctx, muxfield.Args{Dir: dir}); err != nil {
			return "", err
		}
		return muxfield.Tool{}.Execute(ctx, muxfield.Args{Dir: dir})
	}},
	{"logswap", logswap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (logswap.Setter{}).Execute(ctx, logswap.Args{Dir: dir}); err != nil {
			return "", err
		}
		defer func() { log.SetOutput(os.Stderr) }()
		return logswap.Tool{}.Execute(ctx, logswap.Args{Dir: dir})
	}},
	{"middleware", middleware.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (middleware.Setter{}).Execute(ctx, middleware.Args{Dir: dir}); err != nil {
			return "", err
		}
		return middleware.Tool{}.Execute(ctx, middleware.Args{Dir: dir})
	}},
	{"ctxdynamic", ctxdynamic.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ctxdynamic.Setter{}).Execute(ctx, ctxdynamic.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ctxdynamic.Tool{}.Execute(ctx, ctxdynamic.Args{Dir: dir})
	}},
	{"ctxmap", ctxmap.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (ctxmap.Setter{}).Execute(ctx, ctxmap.Args{Dir: dir}); err != nil {
			return "", err
		}
		return ctxmap.Tool{}.Execute(ctx, ctxmap.Args{Dir: dir})
	}},
	{"timerreset", timerreset.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (timerreset.Setter{}).Execute(ctx, timerreset.Args{Dir: dir}); err != nil {
			return "", err
		}
		return timerreset.Tool{}.Execute(ctx, timerreset.Args{Dir: dir})
	}},
	{"muxnested", muxnested.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (muxnested.Setter{}).Execute(ctx, muxnested.Args{Dir: dir}); err != nil {
			return "", err
		}
		return muxnested.Tool{}.Execute(ctx, muxnested.Args{Dir: dir})
	}},
	{"mwfield", mwfield.Want, "SECRET", func(ctx context.Context, dir string) (string, error) {
		if _, err := (mwfield.Setter{}).Execute(ctx, mwfield.Args{Dir: dir}); err != nil {
			return "", err
		}
		return mwfield.Tool{}.Execute(ctx, mwfield.Args{Dir: dir})
	}},
}

// aloneProbes are audited each in a program of its own (TestProbesAlone),
// not in TestTogether's: what they store in the standard library's
// package state (http.DefaultClient's Transport, the output of log's
// default Logger, which net/http logs to) every tool of their program
// that uses it runs, the honest ones' too (logdefaultvar, logaliasvar,
// logifacevar and logifaceprog too); those that share
// DefaultServeMux with servemux, whose handler would be charged to them;
// svcreflect, whose reflective store TestTogether's program charges
// with every capability through the standard library's types alone; and
// pkgvarreflect, pkgvarreflectfn and pkgvarreflectvar, with whose
// reflective stores every dynamic call of the interface or function type
// they store is charged, the honest tools' too (they are not in that
// program); ctxparent, whose context with a Value method that reads the
// environment is kept where the resolver's contexts may be, which charges
// every tool of that program that dials; muxstore, which shares
// DefaultServeMux; and ptrload, oncedo, stringerkeep, readerkeep and
// boundload, whose Setter stores at run time what the tool uses: in that program the
// Setters are no tools, and the audit scans the code a tool or start-up
// code reaches (and iterpull, ctxtuple and selectsend, which that
// program catches only through other probes' values); chanaddr, caught at
// start-up (atStartup); and chanonce, chanstringer, syncmapaddr,
// syncmapptr and the ctx…send probes, whose Setter sends what the tool
// uses.
var aloneProbes = map[string]bool{
	"clienttransport": true, "clientswap": true, "logdefault": true, "logdefaultvar": true, "logaliasvar": true, "logifacevar": true, "logifaceprog": true, "slogdefault": true,
	"muxiface": true, "muxbound": true, "muxfield": true, "logswap": true,
	"mwfield":       true,
	"muxnested":     true,
	"middleware":    true,
	"svcreflect":    true,
	"pkgvarreflect": true, "pkgvarreflectfn": true, "pkgvarreflectvar": true,
	"ctxparent": true, "muxstore": true, "ptrload": true, "oncedo": true, "stringerkeep": true, "readerkeep": true, "boundload": true,
	"iterpull": true, "ctxtuple": true, "selectsend": true, "chanaddr": true,
	"chanonce": true, "chanstringer": true, "syncmapaddr": true, "syncmapptr": true,
	"ctxgosend": true, "ctxdefersend": true, "ctxslicesend": true, "ctxappendsend": true,
}

// atStartup are the probes the audit charges to their package's start-up
// code, a warning of its own, rather than to the tool: chanaddr, whose
// variable's address another tool sends on a channel, so that what start-up
// code keeps in the variable is the start-up code's.
var atStartup = map[string]bool{"chanaddr": true}

// TestProbesAlone audits each of aloneProbes in its own program, with
// the other tools of its package (Setter, Maker), as toolgen audits every
// tool of a toolbox in one program.
func TestProbesAlone(t *testing.T) {
	t.Parallel()
	for _, p := range probes {
		if !aloneProbes[p.name] {
			continue
		}
		t.Run(p.name, func(t *testing.T) {
			dir := filepath.Join("testdata", "probes", p.name)
			src, err := os.ReadFile(filepath.Join(dir, "probe.go"))
			if err != nil {
				t.Fatal(err)
			}
			names := []string{"Tool"}
			for _, other := range []string{"Setter", "Maker"} {
				if bytes.Contains(src, []byte("\ntype "+other+" struct")) {
					names = append(names, other)
				}
			}
			rep := analyzeFor(t, dir, names...)
			got := rep.Tools["Tool"].Reaches
			if atStartup[p.name] {
				for _, f := range rep.Startup {
					if path.Base(f.Pkg) == p.name {
						got |= f.Cap
					}
				}
			}
			if missed := p.want &^ got; missed != 0 {
				t.Errorf("probe %s: the audit misses %s (it reaches %s)", p.name, missed, got)
			}
		})
	}
}

// missedProbes are probes the audit is known to miss, kept so that what
// they show stays written down and run (TestProbesRun): a value another
// tool keeps in, or passes through, an error the standard library holds
// (hex.ErrLength set to it, fmt.Errorf's %w, the cause given to
// WithCancelCause's cancel) is charged to its maker only, the summary
// taking an error to hold nothing; and a function another tool keeps in
// a variable whose address it hands to the standard library
// ((*atomic.Pointer).Store(&hook), unique.Make(&hook)), or sends inside a
// reflect.Value, runs in the tool that takes it out with nothing charged:
// VTA sees through neither. TestProbesMissed fails when one is
// caught, so that it moves to the probes the audit must catch.
var missedProbes = map[string]bool{
	"errvar": true, "errwrap": true, "ctxcause": true,
	"atomicaddr": true, "uniqueaddr": true, "reflectchan": true,
}

// TestProbesMissed audits each of missedProbes with its Setter and
// checks it is still missed.
func TestProbesMissed(t *testing.T) {
	t.Parallel()
	for name := range missedProbes {
		t.Run(name, func(t *testing.T) {
			i := slices.IndexFunc(probes, func(p probe) bool { return p.name == name })
			if i < 0 {
				t.Fatalf("%s is not among the probes", name)
			}
			got := reaches(t, filepath.Join("testdata", "probes", name), "Tool", "Setter")["Tool"]
			if probes[i].want&^got == 0 {
				t.Errorf("the audit now catches %s (it reaches %s): make it a probe it must catch", name, got)
			}
		})
	}
}

// TestProbesRun runs each probe in process: a probe whose hidden action
// does not happen proves nothing about the audit.
func TestProbesRun(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the probes use linux system calls and /bin/sh")
	}
	t.Setenv("AUDIT_PROBE", "SECRET")
	for _, p := range probes {
		t.Run(p.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "chmod"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			// Files the process holds open, as an agent holds its own.
			if err := os.WriteFile(filepath.Join(dir, "secret"), []byte("SECRET"), 0o600); err != nil {
				t.Fatal(err)
			}
			for name, flag := range map[string]int{"secret": os.O_RDONLY, "victim": os.O_WRONLY | os.O_CREATE} {
				f, err := os.OpenFile(filepath.Join(dir, name), flag, 0o600)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
			}
			out, err := p.run(context.Background(), dir)
			if err != nil {
				t.Fatalf("%s: %v", p.name, err)
			}
			if !strings.Contains(out, p.evidence) {
				t.Errorf("%s returned %q, want the evidence %q", p.name, out, p.evidence)
			}
		})
	}
	if p := funcinit.Started; p == nil {
		t.Error("funcinit started no process")
	} else if _, err := p.Wait(); err != nil {
		t.Errorf("funcinit's process: %v", err)
	}
	// The start-up probes ran when the test binary started.
	if want := []string{"var:", "init:"}; !slices.Equal(startupjson.Ran, want) {
		t.Errorf("startupjson ran %q, want %q", startupjson.Ran, want)
	}
	if want := []string{"log:", "tmpl:", "hook:"}; !slices.Equal(startuptmpl.Ran, want) {
		t.Errorf("startuptmpl ran %q, want %q", startuptmpl.Ran, want)
	}
	if startupreflect.Out != "probe-start\n" {
		t.Errorf("startupreflect printed %q, want probe-start", startupreflect.Out)
	}
}
