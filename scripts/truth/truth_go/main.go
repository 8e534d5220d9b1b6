// Command truth_go prints Go facts for callers_truth.py, from the standard library's
// go/parser and go/types only.
//
// Every package directory of the checkout is parsed (files chosen by go/build's build
// constraints for the host GOOS/GOARCH, _test.go files included), type-checked with an
// importer that type-checks the repository's own packages from source, takes the standard
// library from the toolchain, and hands out an empty stand-in package for any other module
// (no module proxy here): the checker goes on past the errors that makes (Config.Error set),
// and calls into those modules are counted as unresolved. Every CallExpr's callee is
// resolved through Info.Uses / Info.Selections to a types.Object, and the object's position
// is matched to the func / method / interface-method declarations written in the checkout.
//
// Usage: go run . CHECKOUT > facts.json
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

type Def struct {
	ID              int      `json:"id"`
	Path            string   `json:"path"`
	Line            int      `json:"line"`
	Name            string   `json:"name"`
	Qualname        string   `json:"qualname"`
	Kind            string   `json:"kind"`
	Container       string   `json:"container"`
	Package         string   `json:"package"`
	Receiver        string   `json:"receiver,omitempty"`
	Implementations []string `json:"implementations,omitempty"`
}

type Ref struct {
	Def  int    `json:"def"`
	Path string `json:"path"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Kind string `json:"kind"`
}

type pkgSrc struct {
	dir, importPath, name string
	files                 []*ast.File
	filenames             []string
	xtest                 bool
}

var (
	root     string
	modPath  string
	fset     = token.NewFileSet()
	byPath   = map[string]*pkgSrc{} // import path -> package (non-xtest)
	checked  = map[string]*types.Package{}
	infos    = map[*pkgSrc]*types.Info{}
	stdImp   = importer.Default()
	typeErrs = 0
	fakes    = map[string]bool{}
	order    []*pkgSrc
)

func rel(p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return filepath.ToSlash(r)
}

type imp struct{}

func (imp) Import(path string) (*types.Package, error) { return imp{}.ImportFrom(path, "", 0) }
func (imp) ImportFrom(path, dir string, mode types.ImportMode) (*types.Package, error) {
	if p, ok := checked[path]; ok {
		return p, nil
	}
	if src, ok := byPath[path]; ok {
		return check(src), nil
	}
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if p, err := stdImp.Import(path); err == nil {
		checked[path] = p
		return p, nil
	}
	// a module we do not have: an empty, complete stand-in
	name := path[strings.LastIndex(path, "/")+1:]
	if strings.HasPrefix(name, "v") && len(name) <= 3 && strings.Contains(path, "/") {
		rest := path[:strings.LastIndex(path, "/")]
		name = rest[strings.LastIndex(rest, "/")+1:]
	}
	name = strings.TrimSuffix(strings.TrimPrefix(name, "go-"), ".v3")
	name = strings.ReplaceAll(strings.ReplaceAll(name, "-", "_"), ".", "_")
	p := types.NewPackage(path, name)
	p.MarkComplete()
	fakes[path] = true
	checked[path] = p
	return p, nil
}

func newInfo() *types.Info {
	return &types.Info{
		Uses:       map[*ast.Ident]types.Object{},
		Defs:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Types:      map[ast.Expr]types.TypeAndValue{},
	}
}

func check(src *pkgSrc) *types.Package {
	key := src.importPath
	if src.xtest {
		key += "_test"
	}
	if p, ok := checked[key]; ok {
		return p
	}
	// placeholder against import cycles (only possible with broken code)
	checked[key] = types.NewPackage(key, src.name)
	conf := types.Config{
		Importer:    imp{},
		Error:       func(err error) { typeErrs++ },
		FakeImportC: true,
	}
	info := newInfo()
	p, _ := conf.Check(key, fset, src.files, info)
	checked[key] = p
	infos[src] = info
	order = append(order, src)
	return p
}

func main() {
	t0 := time.Now()
	var err error
	root, err = filepath.Abs(os.Args[1])
	if err != nil {
		panic(err)
	}
	root, _ = filepath.EvalSymlinks(root)
	if b, err := os.ReadFile(filepath.Join(root, "go.mod")); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "module ") {
				modPath = strings.TrimSpace(strings.TrimPrefix(l, "module "))
			}
		}
	}
	ctx := build.Default
	ctx.CgoEnabled = false
	var all []*pkgSrc
	nfiles := 0
	var dirs []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			n := d.Name()
			if p != root && (strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || n == "testdata" || n == "vendor") {
				return filepath.SkipDir
			}
			if p != root {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			dirs = append(dirs, p)
		}
		return nil
	})
	sort.Strings(dirs)
	for _, dir := range dirs {
		ents, _ := os.ReadDir(dir)
		pk := map[string]*pkgSrc{}
		for _, e := range ents {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
				continue
			}
			if ok, err := ctx.MatchFile(dir, e.Name()); err != nil || !ok {
				continue
			}
			fn := filepath.Join(dir, e.Name())
			f, err := parser.ParseFile(fset, fn, nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil && f == nil {
				fmt.Fprintln(os.Stderr, "parse:", err)
				continue
			}
			name := f.Name.Name
			xtest := strings.HasSuffix(name, "_test") && strings.HasSuffix(e.Name(), "_test.go")
			k := name
			if !xtest {
				k = "main-or-lib"
			}
			s := pk[k]
			if s == nil {
				ip := modPath
				if r := rel(dir); r != "." {
					ip = modPath + "/" + r
				}
				s = &pkgSrc{dir: dir, importPath: ip, name: name, xtest: xtest}
				pk[k] = s
			}
			s.files = append(s.files, f)
			s.filenames = append(s.filenames, fn)
			nfiles++
		}
		keys := make([]string, 0, len(pk))
		for k := range pk {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			s := pk[k]
			all = append(all, s)
			if !s.xtest {
				byPath[s.importPath] = s
			}
		}
	}
	for _, s := range all {
		check(s)
	}

	// definitions
	var defs []*Def
	defAt := map[string]int{} // "file:offset" of the name -> def id
	posKey := func(pos token.Pos) string {
		p := fset.Position(pos)
		return fmt.Sprintf("%s:%d", p.Filename, p.Offset)
	}
	recvName := func(e ast.Expr) string {
		for {
			switch t := e.(type) {
			case *ast.StarExpr:
				e = t.X
			case *ast.IndexExpr:
				e = t.X
			case *ast.IndexListExpr:
				e = t.X
			case *ast.ParenExpr:
				e = t.X
			case *ast.Ident:
				return t.Name
			default:
				return ""
			}
		}
	}
	ifaceObjs := map[int]*types.Interface{}
	for _, s := range order {
		for i, f := range s.files {
			fn := rel(s.filenames[i])
			for _, decl := range f.Decls {
				switch d := decl.(type) {
				case *ast.FuncDecl:
					def := &Def{Path: fn, Line: fset.Position(d.Name.Pos()).Line, Name: d.Name.Name, Package: s.importPath}
					if d.Recv != nil && len(d.Recv.List) > 0 {
						rt := d.Recv.List[0].Type
						def.Container = recvName(rt)
						def.Kind = "method"
						if _, ptr := rt.(*ast.StarExpr); ptr {
							def.Receiver = "*" + def.Container
						} else {
							def.Receiver = def.Container
						}
						def.Qualname = def.Container + "." + def.Name
					} else {
						def.Kind = "function"
						def.Qualname = def.Name
					}
					if _, dup := defAt[posKey(d.Name.Pos())]; dup {
						continue
					}
					def.ID = len(defs)
					defAt[posKey(d.Name.Pos())] = def.ID
					defs = append(defs, def)
				case *ast.GenDecl:
					for _, sp := range d.Specs {
						ts, ok := sp.(*ast.TypeSpec)
						if !ok {
							continue
						}
						it, ok := ts.Type.(*ast.InterfaceType)
						if !ok {
							continue
						}
						var iface *types.Interface
						if obj := infos[s].Defs[ts.Name]; obj != nil {
							iface, _ = obj.Type().Underlying().(*types.Interface)
						}
						for _, m := range it.Methods.List {
							if _, isFn := m.Type.(*ast.FuncType); !isFn {
								continue
							}
							for _, nm := range m.Names {
								if _, dup := defAt[posKey(nm.Pos())]; dup {
									continue
								}
								def := &Def{ID: len(defs), Path: fn, Line: fset.Position(nm.Pos()).Line, Name: nm.Name,
									Qualname: ts.Name.Name + "." + nm.Name, Kind: "interface_method_go",
									Container: ts.Name.Name, Package: s.importPath}
								defAt[posKey(nm.Pos())] = def.ID
								defs = append(defs, def)
								if iface != nil {
									ifaceObjs[def.ID] = iface
								}
							}
						}
					}
				}
			}
		}
	}
	// implementations of interface methods among the repository's named types
	var named []*types.TypeName
	for _, s := range order {
		p := checked[s.importPath]
		if s.xtest {
			p = checked[s.importPath+"_test"]
		}
		if p == nil {
			continue
		}
		sc := p.Scope()
		for _, n := range sc.Names() {
			if tn, ok := sc.Lookup(n).(*types.TypeName); ok {
				if _, isIface := tn.Type().Underlying().(*types.Interface); !isIface {
					named = append(named, tn)
				}
			}
		}
	}
	for id, iface := range ifaceObjs {
		if iface.NumMethods() == 0 {
			continue
		}
		var impls []string
		for _, tn := range named {
			for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
				if types.Implements(t, iface) {
					ms := types.NewMethodSet(t)
					for i := 0; i < ms.Len(); i++ {
						m := ms.At(i).Obj()
						if m.Name() == defs[id].Name {
							if did, ok := defAt[posKey(m.Pos())]; ok {
								d := defs[did]
								impls = append(impls, fmt.Sprintf("%s:%d", d.Path, d.Line))
							}
						}
					}
					break
				}
			}
		}
		sort.Strings(impls)
		impls = uniq(impls)
		defs[id].Implementations = impls
	}

	// references
	stats := map[string]any{}
	calls, resolvedIn, nondef, outside, unresolved, conversions, nonname := 0, 0, 0, 0, 0, 0, 0
	samples := []string{}
	refSet := map[string]Ref{}
	addRef := func(id int, pos token.Pos, kind string) {
		p := fset.Position(pos)
		r := Ref{Def: id, Path: rel(p.Filename), Line: p.Line, Col: p.Column, Kind: kind}
		refSet[fmt.Sprintf("%d|%s|%d|%d|%s", id, r.Path, r.Line, r.Col, kind)] = r
	}
	objOf := func(info *types.Info, e ast.Expr) (types.Object, *ast.Ident) {
		for {
			switch t := e.(type) {
			case *ast.ParenExpr:
				e = t.X
				continue
			case *ast.IndexExpr: // generic instantiation f[T](...)
				e = t.X
				continue
			case *ast.IndexListExpr:
				e = t.X
				continue
			case *ast.Ident:
				return info.Uses[t], t
			case *ast.SelectorExpr:
				if sel, ok := info.Selections[t]; ok {
					return sel.Obj(), t.Sel
				}
				return info.Uses[t.Sel], t.Sel
			}
			return nil, nil
		}
	}
	originOf := func(o types.Object) types.Object {
		if f, ok := o.(*types.Func); ok {
			return f.Origin()
		}
		return o
	}
	for _, s := range order {
		info := infos[s]
		for _, f := range s.files {
			callees := map[*ast.Ident]bool{}
			ast.Inspect(f, func(n ast.Node) bool {
				ce, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if tv, ok := info.Types[ce.Fun]; ok && tv.IsType() {
					conversions++
					return true
				}
				calls++
				obj, id := objOf(info, ce.Fun)
				if id == nil {
					nonname++
					return true
				}
				callees[id] = true
				if obj == nil {
					unresolved++
					if len(samples) < 40 {
						p := fset.Position(id.Pos())
						samples = append(samples, fmt.Sprintf("%s:%d:%d %s", rel(p.Filename), p.Line, p.Column, id.Name))
					}
					return true
				}
				obj = originOf(obj)
				if did, ok := defAt[posKey(obj.Pos())]; ok && obj.Pos().IsValid() {
					resolvedIn++
					addRef(did, id.Pos(), "call")
				} else if obj.Pkg() != nil && (checked[obj.Pkg().Path()] != nil && byPath[obj.Pkg().Path()] != nil ||
					strings.HasSuffix(obj.Pkg().Path(), "_test") && byPath[strings.TrimSuffix(obj.Pkg().Path(), "_test")] != nil) {
					nondef++ // a func-typed variable, field or parameter of the repository
				} else {
					outside++
				}
				return true
			})
			// non-call uses of the repository's funcs and methods
			ast.Inspect(f, func(n ast.Node) bool {
				switch t := n.(type) {
				case *ast.SelectorExpr:
					if callees[t.Sel] {
						return true
					}
					var obj types.Object
					if sel, ok := info.Selections[t]; ok {
						obj = sel.Obj()
					} else {
						obj = info.Uses[t.Sel]
					}
					if obj != nil {
						if did, ok := defAt[posKey(originOf(obj).Pos())]; ok {
							addRef(did, t.Sel.Pos(), "value")
						}
					}
				case *ast.Ident:
					if callees[t] {
						return true
					}
					if obj := info.Uses[t]; obj != nil {
						if did, ok := defAt[posKey(originOf(obj).Pos())]; ok {
							addRef(did, t.Pos(), "value")
						}
					}
				}
				return true
			})
		}
	}
	var refs []Ref
	for _, r := range refSet {
		refs = append(refs, r)
	}
	sort.Slice(refs, func(i, j int) bool {
		a, b := refs[i], refs[j]
		if a.Def != b.Def {
			return a.Def < b.Def
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Kind < b.Kind
	})
	fakeList := []string{}
	for k := range fakes {
		fakeList = append(fakeList, k)
	}
	sort.Strings(fakeList)
	stats["files"] = nfiles
	stats["packages"] = len(order)
	stats["call_exprs"] = calls
	stats["conversions_not_counted"] = conversions
	stats["calls_nonname_callee"] = nonname
	stats["calls_resolved_in_repo"] = resolvedIn
	stats["calls_resolved_in_repo_nondef"] = nondef
	stats["calls_resolved_outside"] = outside
	stats["calls_unresolved"] = unresolved
	stats["type_errors"] = typeErrs
	stats["stand_in_modules"] = fakeList
	stats["seconds"] = float64(time.Since(t0).Milliseconds()/100) / 10
	out := map[string]any{
		"tool": "go/types (" + runtime.Version() + ")", "tool_version": runtime.Version(),
		"stats": stats, "unresolved_samples": samples, "defs": defs, "refs": refs,
	}
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(out); err != nil {
		panic(err)
	}
}

func uniq(s []string) []string {
	var out []string
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}
