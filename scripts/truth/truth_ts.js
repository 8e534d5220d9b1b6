#!/usr/bin/env node
// TypeScript / JavaScript facts for callers_truth.py, from the TypeScript compiler API.
//
// Builds one Program over every .ts/.tsx/.mts/.cts/.js/.jsx/.mjs/.cjs file of the checkout
// (node_modules, dist, build, coverage left out) with the repository's tsconfig options where
// they parse, walks every CallExpression / NewExpression, and resolves the callee name with
// the type checker (getSymbolAtLocation, aliases followed with getAliasedSymbol). A reference
// is kept when one of the symbol's declarations is a definition written in the repository.
//
// Usage: node truth_ts.js CHECKOUT > facts.json
// The `typescript` package is found through TS_MODULE (a path) or the usual require lookup.
'use strict';
const fs = require('fs');
const path = require('path');
const ts = require(process.env.TS_MODULE || 'typescript');

const root = fs.realpathSync(process.argv[2]);
const t0 = Date.now();
const SKIP = new Set(['node_modules', 'dist', 'build', 'coverage', 'out', '.git', 'vendor']);
const EXT = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

function walkDir(dir, out) {
  for (const e of fs.readdirSync(dir, {withFileTypes: true}).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.name.startsWith('.') || SKIP.has(e.name)) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walkDir(p, out);
    else if (e.isFile() && EXT.test(e.name) && !/\.min\.js$/.test(e.name)) out.push(p);
  }
  return out;
}
let files = walkDir(root, []);

// compiler options: the repository's tsconfig when it can be read, then our overrides
let options = {};
const cfgPath = path.join(root, 'tsconfig.json');
if (fs.existsSync(cfgPath)) {
  const cfg = ts.readConfigFile(cfgPath, ts.sys.readFile);
  if (cfg.config && cfg.config.compilerOptions) {
    const conv = ts.convertCompilerOptionsFromJson(cfg.config.compilerOptions, root);
    options = conv.options;
    // Path mappings without a baseUrl are relative to the configuration's folder, as
    // `tsc -p` reads them; convertCompilerOptionsFromJson leaves them relative to the
    // process's working directory.
    if (options.paths && !options.baseUrl) options.pathsBasePath = root;
  }
  // A declaration file the project does not include is no part of its compile (vuejs/core
  // concatenates `types/*.d.ts` to its bundle), and its `declare module '@vue/…'` would
  // stand in for the package the paths map, leaving every import from it unresolved.
  const parsed = ts.parseJsonConfigFileContent(cfg.config || {}, ts.sys, root);
  const own = new Set(parsed.fileNames.map((f) => path.resolve(f)));
  files = files.filter((f) => !/\.d\.[cm]?ts$/.test(f) || own.has(f));
}
Object.assign(options, {
  noEmit: true, allowJs: true, checkJs: false, skipLibCheck: true,
  target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler, allowImportingTsExtensions: true,
  resolveJsonModule: true, jsx: ts.JsxEmit.Preserve, types: [], noLib: false,
  allowArbitraryExtensions: true,
});
const program = ts.createProgram(files, options);
const checker = program.getTypeChecker();

const rel = (f) => path.relative(root, f).split(path.sep).join('/');
const inRepo = (f) => {
  const r = path.relative(root, f);
  return !r.startsWith('..') && !path.isAbsolute(r) && !r.split(path.sep).includes('node_modules');
};
const repoFiles = program.getSourceFiles().filter((sf) => inRepo(sf.fileName));
const lineOf = (sf, node) => sf.getLineAndCharacterOfPosition(node.getStart(sf));

// ---- definitions ----------------------------------------------------------------------
const defs = [];
const defByNode = new Map(); // declaration node -> def id
const defBySymbol = new Map(); // overloads and merged declarations share one definition
function addDef(sf, declNode, nameNode, kind, container, extra) {
  const lc = lineOf(sf, nameNode);
  const sym = checker.getSymbolAtLocation(nameNode);
  if (sym && defBySymbol.has(sym) && kind !== 'constructor') {
    const d0 = defs[defBySymbol.get(sym)];
    if (d0.kind === kind && d0.path === rel(sf.fileName)) {
      defByNode.set(declNode, d0.id);
      d0.overloads = (d0.overloads || [`${d0.path}:${d0.line}`]).concat([`${d0.path}:${lc.line + 1}`]);
      return d0;
    }
  }
  const name = nameNode.getText(sf);
  const d = Object.assign({
    id: defs.length, path: rel(sf.fileName), line: lc.line + 1, name,
    qualname: container ? `${container}.${name}` : name, kind, container: container || '',
  }, extra || {});
  defs.push(d);
  defByNode.set(declNode, d.id);
  if (sym && !defBySymbol.has(sym)) defBySymbol.set(sym, d.id);
  return d;
}
function isStatic(node) {
  return !!(ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Static);
}
function enclosingFunction(node) {
  for (let p = node.parent; p; p = p.parent) {
    if (ts.isFunctionLike(p)) return p;
  }
  return null;
}
const classDefs = new Map(); // class decl node -> def
const interfaceMethods = []; // [def, interface decl]
for (const sf of repoFiles) {
  if (sf.isDeclarationFile) continue;
  const visit = (node) => {
    const nested = !!enclosingFunction(node);
    if (ts.isFunctionDeclaration(node) && node.name) {
      addDef(sf, node, node.name, 'function', '', {nested});
    } else if (ts.isClassDeclaration(node) && node.name) {
      const d = addDef(sf, node, node.name, 'constructor', '', {nested});
      classDefs.set(node, d);
      for (const m of node.members) {
        if (ts.isConstructorDeclaration(m)) defByNode.set(m, d.id);
      }
    } else if ((ts.isMethodDeclaration(node)) && node.name && ts.isClassLike(node.parent) && node.parent.name) {
      if (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name)) {
        addDef(sf, node, node.name, isStatic(node) ? 'static_method' : 'method', node.parent.name.text, {nested});
      }
    } else if ((ts.isMethodSignature(node) ||
                (ts.isPropertySignature(node) && node.type && ts.isFunctionTypeNode(node.type))) &&
               node.name && ts.isIdentifier(node.name) &&
               (ts.isInterfaceDeclaration(node.parent) ||
                (ts.isTypeLiteralNode(node.parent) && ts.isTypeAliasDeclaration(node.parent.parent)))) {
      const owner = ts.isInterfaceDeclaration(node.parent) ? node.parent : node.parent.parent;
      const d = addDef(sf, node, node.name, 'interface_method', owner.name.text,
                       {nested, property_signature: ts.isPropertySignature(node)});
      interfaceMethods.push([d, owner]);
    } else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer &&
               (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) {
      addDef(sf, node, node.name, 'function', '', {nested, const_function: true});
      defByNode.set(node.initializer, defByNode.get(node));
    } else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && !nested &&
               ts.isVariableStatement(node.parent.parent) && ts.isSourceFile(node.parent.parent.parent) &&
               checker.getTypeAtLocation(node.name).getCallSignatures().length > 0) {
      // a module-level constant holding a function made elsewhere: `export const produce = immer.produce`
      addDef(sf, node, node.name, 'function', '', {nested, callable_variable: true});
    } else if (ts.isPropertyDeclaration(node) && ts.isIdentifier(node.name) && node.initializer &&
               ts.isClassLike(node.parent) && node.parent.name &&
               (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) {
      addDef(sf, node, node.name, isStatic(node) ? 'static_method' : 'method', node.parent.name.text,
             {nested, property_function: true});
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
// implementations of interface methods: methods of the same name in classes that
// `implements` the interface (directly), found through the checker
for (const [d, iface] of interfaceMethods) {
  const impls = [];
  for (const [cls, cd] of classDefs) {
    for (const h of cls.heritageClauses || []) {
      if (h.token !== ts.SyntaxKind.ImplementsKeyword) continue;
      for (const t of h.types) {
        let s = checker.getSymbolAtLocation(t.expression);
        if (s && (s.flags & ts.SymbolFlags.Alias)) s = checker.getAliasedSymbol(s);
        if (!s || !(s.declarations || []).includes(iface)) continue;
        for (const m of cls.members) {
          if (m.name && m.name.getText() === d.name && defByNode.has(m)) {
            const md = defs[defByNode.get(m)];
            impls.push(`${md.path}:${md.line}`);
          }
        }
      }
    }
  }
  if (impls.length) d.implementations = impls.sort();
}

// ---- references -------------------------------------------------------------------------
const defNames = new Set(defs.map((d) => d.name));
const stats = {files: repoFiles.filter((s) => !s.isDeclarationFile).length, call_exprs: 0,
  calls_name_callee: 0, calls_resolved_in_repo: 0, calls_resolved_in_repo_nondef: 0,
  calls_resolved_outside: 0, calls_unresolved: 0, calls_ambiguous_multi: 0};
const unresolvedSamples = [];
const refs = new Map(); // key -> ref

function resolve(nameNode) {
  let sym = checker.getSymbolAtLocation(nameNode);
  if (!sym) return null;
  if (sym.flags & ts.SymbolFlags.Alias) {
    try { sym = checker.getAliasedSymbol(sym); } catch (e) { /* keep the alias */ }
  }
  return sym;
}
function classify(sym) {
  const hits = new Set();
  let nondef = false;
  let outside = false;
  for (const decl of (sym && sym.declarations) || []) {
    const sf = decl.getSourceFile();
    if (!inRepo(sf.fileName)) { outside = true; continue; }
    if (defByNode.has(decl)) hits.add(defByNode.get(decl));
    else nondef = true;
  }
  return {hits, nondef, outside};
}
function roleOf(node) {
  // node: an identifier not in callee position
  let p = node.parent;
  if (ts.isPropertyAccessExpression(p) && p.name === node) p = p.parent;
  for (let a = node.parent; a; a = a.parent) {
    if (ts.isImportDeclaration(a) || ts.isImportEqualsDeclaration(a)) return 'import';
    if (ts.isExportDeclaration(a) || ts.isExportAssignment(a)) return 'export';
    if (ts.isDecorator(a)) return 'decorator';
    if (ts.isHeritageClause(a)) return 'heritage';
    if (ts.isTypeNode(a) && !ts.isExpressionWithTypeArguments(a)) return 'type';
    if (ts.isStatement(a) || ts.isClassElement(a)) break;
  }
  if (ts.isTypeQueryNode(p)) return 'type';
  if (ts.isJsxOpeningLikeElement(p) || ts.isJsxClosingElement(p)) return 'jsx';
  return 'value';
}
function record(defId, sf, nameNode, kind, ambiguous) {
  const lc = lineOf(sf, nameNode);
  const r = {def: defId, path: rel(sf.fileName), line: lc.line + 1, col: lc.character + 1, kind, ambiguous};
  refs.set(`${defId}|${r.path}|${r.line}|${r.col}|${kind}`, r);
}
function calleeName(expr) {
  while (ts.isParenthesizedExpression(expr) || ts.isNonNullExpression(expr) ||
         ts.isAsExpression(expr) || ts.isTypeAssertionExpression(expr)) expr = expr.expression;
  if (ts.isIdentifier(expr) || ts.isPrivateIdentifier(expr)) return expr;
  if (ts.isPropertyAccessExpression(expr)) return expr.name;
  if (expr.kind === ts.SyntaxKind.SuperKeyword) return expr;
  return null;
}

for (const sf of repoFiles) {
  if (sf.isDeclarationFile) continue;
  const calleeNodes = new Set();
  const visit = (node) => {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      stats.call_exprs++;
      const nameNode = calleeName(node.expression);
      if (nameNode) {
        calleeNodes.add(nameNode);
        stats.calls_name_callee++;
        let sym = null;
        if (nameNode.kind === ts.SyntaxKind.SuperKeyword) {
          // super(...) calls the base class constructor
          const sig = checker.getResolvedSignature(node);
          const decl = sig && sig.declaration;
          sym = decl ? {declarations: [ts.isConstructorDeclaration(decl) ? decl : decl]} : null;
          if (!decl) {
            const t = checker.getTypeAtLocation(nameNode);
            sym = t && t.symbol;
          }
        } else {
          sym = resolve(nameNode);
        }
        const {hits, nondef, outside} = classify(sym);
        if (hits.size) {
          stats.calls_resolved_in_repo++;
          if (hits.size > 1) stats.calls_ambiguous_multi++;
        } else if (nondef) stats.calls_resolved_in_repo_nondef++;
        else if (outside) stats.calls_resolved_outside++;
        else {
          stats.calls_unresolved++;
          if (unresolvedSamples.length < 40) {
            const lc = lineOf(sf, nameNode);
            unresolvedSamples.push(`${rel(sf.fileName)}:${lc.line + 1}:${lc.character + 1} ${nameNode.getText(sf)}`);
          }
        }
        for (const h of hits) record(h, sf, nameNode, 'call', hits.size > 1);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  // non-call references of names that some definition carries
  const visitIds = (node) => {
    if ((ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) && defNames.has(node.text) &&
        !calleeNodes.has(node)) {
      const p = node.parent;
      const isDeclName = p && p.name === node && (defByNode.has(p) || ts.isParameter(p) ||
        ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p) || ts.isPropertySignature(p) ||
        ts.isVariableDeclaration(p) || ts.isMethodDeclaration(p) || ts.isMethodSignature(p));
      if (!isDeclName) {
        const sym = resolve(node);
        const {hits} = classify(sym);
        if (hits.size) {
          const role = roleOf(node);
          for (const h of hits) record(h, sf, node, role, hits.size > 1);
        }
      }
    }
    ts.forEachChild(node, visitIds);
  };
  visitIds(sf);
}

stats.seconds = Math.round((Date.now() - t0) / 100) / 10;
const refList = [...refs.values()].sort((a, b) =>
  a.def - b.def || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.line - b.line || a.col - b.col ||
  (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
process.stdout.write(JSON.stringify({
  tool: 'typescript', tool_version: ts.version, stats, unresolved_samples: unresolvedSamples,
  defs, refs: refList,
}) + '\n');
