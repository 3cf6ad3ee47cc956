// Package all puts the honest tools, this repository's tools, a tool that
// brings golang.org/x/tools, and the hostile probes (with the start-up
// probes) into one program: each honest tool must keep the verdict it has
// alone, and each probe must be caught.
package all

import (
	"context"
	"fmt"

	"golang.org/x/tools/go/packages"

	"github.com/toolreg/toolreg/internal/audit/testdata/honest/anyfuncs"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/apiclient"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/builder"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/bushooks"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/cfgclient"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/codecs"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/configcheck"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/csvsum"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/ctxrecorder"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/deadline"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/decoiface"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/decorator"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/defaults"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/diag"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/embedbase"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/embedcfg"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/embediface"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/errgroup"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/errwrap"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/fieldmethod"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/filestats"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/fillnil"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/fmtstringer"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/formatters"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/fsyscount"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/functable"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/gencache"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/genvalidate"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/gitlog"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/gofmt"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/handlers"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/heapsort"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/httpget"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/httpsjson"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/inject"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/jsonfmt"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/jsonsecret"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/logprefix"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/memo"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/merge"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/methodval"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/mmapcount"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/newloader"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/once"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/oncecache"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/oncevalue"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/optconv"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/options"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/optservice"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/ownstate"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/pipeline"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/pkgdefault"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/pkgsvc"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/progress"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/ptrcache"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/readall"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/readlines"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/register"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/registry"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/report"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/resultgen"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/sharedhelper"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/sharedvars"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/singleflight"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/slogbuf"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/startlog"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/storeiface"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/svcerr"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/tarlist"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/tlsroots"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/tmpl"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/tmpldata"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/tmplfuncs"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/uatransport"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/upload"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/validate"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/visitor"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/walk"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/workerpool"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/wraphelper"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/wrapiface"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/writeout"
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
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/atomicfunc"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/benchsetenv"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/benchtempdir"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/bufiowrap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/buildkeep"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/cellkeep"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/cfgaddr"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/chanfunc"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/chmodreflect"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/closureescape"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/constbranch"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/convalias"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/convsteps"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/convvta"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctorcache"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxafter"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxcell"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxchain"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxdynamic"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxfunc"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxhelper"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxkept"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxmap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/ctxsend"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/decokeep"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/elemptr"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/elemswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/embedaddr"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/embedbound"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/embedinit"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/embedswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/embedwrap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/errorsas"
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
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/jsonelem"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/jsonfield"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/jsonkey"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/jsonmarshal"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/jsonuint8"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/linknamevar"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/makefunc"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/mapswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/multipart"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/muxvar"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/namedbasic"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/oncefunc"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/optfield"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/optkeep"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/optswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/optswrite"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/osargs"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/pipeswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/pkgvaropt"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/pkgvarset"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/pkgvarwhole"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/poolcell"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/poolnew"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/poolput"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/poolspread"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/poolswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/recvswap"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/reflectaddr"
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
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/selectvta"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/servefile"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/servemux"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/sqlregister"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/sqlscan"
	_ "github.com/toolreg/toolreg/internal/audit/testdata/probes/startupjson"
	_ "github.com/toolreg/toolreg/internal/audit/testdata/probes/startupreflect"
	_ "github.com/toolreg/toolreg/internal/audit/testdata/probes/startuptmpl"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/svcalias"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/svcclosure"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/svcreflect"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/syncmapfunc"
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
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/uniqueval"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/unsafeslice"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/unsafestring"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/wrapescape"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/xmlmarshal"
	"github.com/toolreg/toolreg/internal/audit/testdata/probes/xmlunmarshal"
	"github.com/toolreg/toolreg/tool"
	"github.com/toolreg/toolreg/toolbox"
)

// The tools, by the names the test audits.
type (
	CSVSum              = csvsum.Tool
	GitLog              = gitlog.Tool
	HTTPGet             = httpget.Tool
	JSONFmt             = jsonfmt.Tool
	Once                = once.Tool
	OnceValue           = oncevalue.Tool
	NewLoader           = newloader.Tool
	Diag                = diag.Tool
	GoFmt               = gofmt.Tool
	Deadline            = deadline.Tool
	ReadAll             = readall.Tool
	ReadLines           = readlines.Tool
	Tmpl                = tmpl.Tool
	Walk                = walk.Tool
	WriteOut            = writeout.Tool
	ConfigCheck         = configcheck.Tool
	GenValidate         = genvalidate.Tool
	Validate            = validate.Tool
	Merge               = merge.Tool
	Defaults            = defaults.Tool
	APIClient           = apiclient.Tool
	FileStats           = filestats.Tool
	Report              = report.Tool
	HeapSort            = heapsort.Tool
	Weather             = toolbox.Weather
	WebSearch           = toolbox.WebSearch
	Now                 = toolbox.Now
	PingURL             = toolbox.PingURL
	DiskUsage           = toolbox.DiskUsage
	Probebenchsetenv    = benchsetenv.Tool
	Probebenchtempdir   = benchtempdir.Tool
	Probechmodreflect   = chmodreflect.Tool
	Probefmtfield       = fmtfield.Tool
	Probefuncinit       = funcinit.Tool
	Probegobdecode      = gobdecode.Tool
	Probeioctl          = ioctl.Tool
	Probejsonelem       = jsonelem.Tool
	Probejsonfield      = jsonfield.Tool
	Probejsonkey        = jsonkey.Tool
	Probejsonmarshal    = jsonmarshal.Tool
	Probereflectfield   = reflectfield.Tool
	Probereflectmethods = reflectmethods.Tool
	Probereflectnew     = reflectnew.Tool
	Probetmplfunc       = tmplfunc.Tool
	Probetmplmethod     = tmplmethod.Tool
	Probexmlmarshal     = xmlmarshal.Tool
	Probexmlunmarshal   = xmlunmarshal.Tool
	Probetmplbound      = tmplbound.Tool
	Probetmplmethodexpr = tmplmethodexpr.Tool
	Probetmpliface      = tmpliface.Tool
	Probetmplctx        = tmplctx.Tool
	Probereflectfuncin  = reflectfuncin.Tool
	Probereflectfuncout = reflectfuncout.Tool
	Probeunsafeslice    = unsafeslice.Tool
	Probeunsafestring   = unsafestring.Tool
	Probegenericelem    = genericelem.Tool
	Probegenericfield   = genericfield.Tool
	Probegenericfunc    = genericfunc.Tool
	Probegenericlocal   = genericlocal.Tool
	Probegenericreflect = genericreflect.Tool
	Probeassertctx      = assertctx.Tool
	Probeassertescape   = assertescape.Tool
	Probeassertrange    = assertrange.Tool
	Probeassertlazy     = assertlazy.Tool
	Probeassertlazygen  = assertlazygen.Tool
	Probeassertalias    = assertalias.Tool
	Probejsonuint8      = jsonuint8.Tool
	Probefmtint32       = fmtint32.Tool
	Probeassertrecover  = assertrecover.Tool
	Probeassertgoexit   = assertgoexit.Tool
	Probeastype         = astype.Tool
	Probesqlscan        = sqlscan.Tool
	Probegobstd         = gobstd.Tool
	Probeosargs         = osargs.Tool
	Probeargsvar        = argsvar.Tool
	Probeconstbranch    = constbranch.Tool
	Probewrapescape     = wrapescape.Tool
	Probectorcache      = ctorcache.Tool
	Probedecokeep       = decokeep.Tool
	Probeembedbound     = embedbound.Tool
	Probeembedswap      = embedswap.Tool
	Probeembedwrap      = embedwrap.Tool
	Probeifaceswap      = ifaceswap.Tool
	Probeinjectswap     = injectswap.Tool
	Probeoptfield       = optfield.Tool
	Probeoptkeep        = optkeep.Tool
	Probeoptswrite      = optswrite.Tool
	Probepipeswap       = pipeswap.Tool
	Probeoptswap        = optswap.Tool
	Probesvcalias       = svcalias.Tool
	Probesvcclosure     = svcclosure.Tool
	Probebuildkeep      = buildkeep.Tool
	Probecfgaddr        = cfgaddr.Tool
	Probehookalias      = hookalias.Tool
	Probehookshared     = hookshared.Tool
	Probectxkept        = ctxkept.Tool
	Probectxsend        = ctxsend.Tool
	Probemakefunc       = makefunc.Tool
	Probeelemptr        = elemptr.Tool
	Probereflectaddr    = reflectaddr.Tool
	Probeconvvta        = convvta.Tool
	Probeconvsteps      = convsteps.Tool
	Probeconvalias      = convalias.Tool
	Probeuniqueval      = uniqueval.Tool
	Probeselectvta      = selectvta.Tool
	Probepoolput        = poolput.Tool
	Probeifaceconv      = ifaceconv.Tool
	Probectxchain       = ctxchain.Tool
	Probearrconv        = arrconv.Tool
	Probeappendkeep     = appendkeep.Tool
	Probepoolcell       = poolcell.Tool
	Probepoolspread     = poolspread.Tool
	Probepoolswap       = poolswap.Tool
	Probeembedinit      = embedinit.Tool
	Probeembedaddr      = embedaddr.Tool
	Probefreshphi       = freshphi.Tool
	Probepkgvarset      = pkgvarset.Tool
	Probepkgvaropt      = pkgvaropt.Tool
	Probepkgvarwhole    = pkgvarwhole.Tool
	Probesvcreflect     = svcreflect.Tool
	Probefieldswap      = fieldswap.Tool
	Probeelemswap       = elemswap.Tool
	Probecellkeep       = cellkeep.Tool
	Probemapswap        = mapswap.Tool
	Probetmplhelper     = tmplhelper.Tool
	Proberecvswap       = recvswap.Tool
	Proberegswap        = regswap.Tool
	Probesyncmapswap    = syncmapswap.Tool
	Probeasmdata        = asmdata.Tool
	Probelinknamevar    = linknamevar.Tool
	Probenamedbasic     = namedbasic.Tool
	Probereflectstd     = reflectstd.Tool
	Probeerrorsas       = errorsas.Tool
	Probereflectsliceat = reflectsliceat.Tool
	Probetmplfuncarg    = tmplfuncarg.Tool
	Probereflectset     = reflectset.Tool
	Probegobiface       = gobiface.Tool
	Probereflectconvert = reflectconvert.Tool
	Probechanfunc       = chanfunc.Tool
	Probepoolnew        = poolnew.Tool
	Probehttpdir        = httpdir.Tool
	Probeservefile      = servefile.Tool
	Probetlskeypair     = tlskeypair.Tool
	Probemultipart      = multipart.Tool
	Probefddup          = fddup.Tool
	Probeglobalfunc     = globalfunc.Tool
	Probeglobalptr      = globalptr.Tool
	Probeheapfunc       = heapfunc.Tool
	Probeheapiface      = heapiface.Tool
	Probeheapchain      = heapchain.Tool
	Probeatomicfunc     = atomicfunc.Tool
	Probectxfunc        = ctxfunc.Tool
	Probesyncmapfunc    = syncmapfunc.Tool
	Probeanyslicefunc   = anyslicefunc.Tool
	Probeglobalcopy     = globalcopy.Tool
	Probeglobalinit     = globalinit.Tool
	Probeglobalshared   = globalshared.Tool
	Probehelperparam    = helperparam.Tool
	Probeclosureescape  = closureescape.Tool
	Probeservemux       = servemux.Tool
	Probeiocopywriteto  = iocopywriteto.Tool
	Probetimerreset     = timerreset.Tool
	Probectxmap         = ctxmap.Tool
	Probectxdynamic     = ctxdynamic.Tool
	Probeexpvarfunc     = expvarfunc.Tool
	Probeoncefunc       = oncefunc.Tool
	Probebufiowrap      = bufiowrap.Tool
	Probectxafter       = ctxafter.Tool
	Probectxcell        = ctxcell.Tool
	Probectxhelper      = ctxhelper.Tool
	Probemuxvar         = muxvar.Tool
	Probesqlregister    = sqlregister.Tool
	Probeflagvar        = flagvar.Tool
	FuncTable           = functable.Tool
	MmapCount           = mmapcount.Tool
	SharedSizes         = sharedhelper.Tool
	SharedFetch         = sharedhelper.Fetch
	SharedVars          = sharedvars.Tool
	SharedVarsEnv       = sharedvars.Env
	Decorator           = decorator.Tool
	DecoratorEnv        = decorator.Env
	SingleFlight        = singleflight.Tool
	SingleFlightFetch   = singleflight.Fetch
	Options             = options.Tool
	OptionsEnv          = options.Env
	OptConv             = optconv.Tool
	OptConvEnv          = optconv.Env
	GenCache            = gencache.Tool
	GenCacheEnv         = gencache.Env
	WrapIface           = wrapiface.Tool
	WrapIfaceEnv        = wrapiface.Env
	EmbedIface          = embediface.Tool
	EmbedIfaceEnv       = embediface.Env
	Inject              = inject.Tool
	InjectExec          = inject.Exec
	OptService          = optservice.Tool
	OptServiceExec      = optservice.Exec
	SvcErr              = svcerr.Tool
	SvcErrExec          = svcerr.Exec
	Builder             = builder.Tool
	BuilderExec         = builder.Exec
	CfgClient           = cfgclient.Tool
	CfgClientExec       = cfgclient.Exec
	EmbedCfg            = embedcfg.Tool
	EmbedCfgExec        = embedcfg.Exec
	PkgSvc              = pkgsvc.Tool
	PkgSvcExec          = pkgsvc.Exec
	FillNil             = fillnil.Tool
	FillNilRead         = fillnil.Read
	DecoIface           = decoiface.Tool
	DecoIfaceEnv        = decoiface.Env
	Pipeline            = pipeline.Tool
	PipelineEnv         = pipeline.Env
	Formatters          = formatters.Tool
	FormattersEnv       = formatters.Env
	StartLog            = startlog.Tool
	Visitor             = visitor.Tool
	VisitorEnv          = visitor.Env
	Register            = register.Tool
	ErrGroup            = errgroup.Tool
	ErrGroupEnv         = errgroup.Env
	Handlers            = handlers.Tool
	HandlersEnv         = handlers.Env
	TmplData            = tmpldata.Tool
	TmplDataEnv         = tmpldata.Env
	FieldMethod         = fieldmethod.Tool
	FieldMethodEnv      = fieldmethod.Env
	Registry            = registry.Tool
	RegistryEnv         = registry.Env
	PtrCache            = ptrcache.Tool
	PtrCacheEnv         = ptrcache.Env
	AnyRead             = anyfuncs.Tool
	AnyPlain            = anyfuncs.Plain
	OwnRead             = ownstate.Tool
	OwnPlain            = ownstate.Plain
	Upload              = upload.Tool
	LogPrefix           = logprefix.Tool
	LogSave             = logprefix.Save
	TarList             = tarlist.Tool
	TarPlain            = tarlist.Plain
	WrapSizes           = wraphelper.Tool
	WrapFetch           = wraphelper.Fetch
	Probefdfcntl        = fdfcntl.Tool
	Probefdmmap         = fdmmap.Tool
	Probefdsendfile     = fdsendfile.Tool
	Probeheapdump       = heapdump.Tool
	Probeexpvarcmd      = expvarcmd.Tool
	HTTPSJSON           = httpsjson.Tool
	TLSRoots            = tlsroots.Tool
	Jsonsecret          = jsonsecret.Tool
	JsonsecretLoad      = jsonsecret.Load
	Fmtstringer         = fmtstringer.Tool
	FmtstringerHome     = fmtstringer.Home
	Slogbuf             = slogbuf.Tool
	SlogbufDebug        = slogbuf.Debug
	Tmplfuncs           = tmplfuncs.Tool
	TmplfuncsEnv        = tmplfuncs.Env
	Storeiface          = storeiface.Tool
	StoreifaceSave      = storeiface.Save
	Resultgen           = resultgen.Tool
	ResultgenEnv        = resultgen.Env
	Methodval           = methodval.Tool
	MethodvalEnv        = methodval.Env
	Uatransport         = uatransport.Tool
	UatransportFetch    = uatransport.Fetch
	Oncecache           = oncecache.Tool
	OncecacheConfig     = oncecache.Config
	Codecs              = codecs.Tool
	CodecsSave          = codecs.Save
	Fsyscount           = fsyscount.Tool
	FsyscountDir        = fsyscount.Dir
	Errwrap             = errwrap.Tool
	ErrwrapExec         = errwrap.Exec
	Progress            = progress.Tool
	ProgressVerbose     = progress.Verbose
	Bushooks            = bushooks.Tool
	BushooksAudit       = bushooks.Audit
	Ctxrecorder         = ctxrecorder.Tool
	CtxrecorderJournal  = ctxrecorder.Journal
	Workerpool          = workerpool.Tool
	WorkerpoolFetch     = workerpool.Fetch
	Embedbase           = embedbase.Tool
	EmbedbaseExec       = embedbase.Exec
	Pkgdefault          = pkgdefault.Tool
	PkgdefaultExec      = pkgdefault.Exec
	Memo                = memo.Tool
	MemoLookup          = memo.Lookup
)

// Lister lists Go packages with golang.org/x/tools/go/packages, which
// runs the go command.
type Lister struct{}

// ListerArgs name the pattern.
type ListerArgs struct{ Pattern string }

// Definition declares what go list needs.
func (Lister) Definition() tool.Definition {
	return tool.Definition{ID: "lister", Capabilities: tool.Exec | tool.ReadFiles | tool.WriteFiles | tool.Env}
}

// Execute lists the packages.
func (Lister) Execute(ctx context.Context, args ListerArgs) (string, error) {
	pkgs, err := packages.Load(&packages.Config{Context: ctx, Mode: packages.LoadTypes}, args.Pattern)
	if err != nil {
		return "", err
	}
	return fmt.Sprint(len(pkgs)), nil
}
