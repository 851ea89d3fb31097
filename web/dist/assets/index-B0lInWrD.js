var e,t,n,r,i,a,o,s,c,l,u=Symbol.for(`pv`),d={},f=[],p=/^m(i|n|o|s|text|space)$/,m=Array.isArray,h=f.slice,g=Object.assign;function _(e){e&&e.parentNode&&e.remove()}function v(n,r,i,a,o){var s={type:n,props:r,key:i,ref:a,__k:null,__:null,__b:0,__e:null,__c:null,constructor:u,__v:o||++t,__i:-1,__u:0};return!o&&e.vnode&&e.vnode(s),s}function y(e){return e.children}function b(e,t){this.props=e,this.context=t,this.__g=0}function x(e,t){if(t==null)return e.__&&x(e.__,e.__i+1);for(var n;t<e.__k.length;t++)if((n=e.__k[t])&&n.__e)return n.__e;return typeof e.type!=`function`||e.props.__P?null:x(e)}function S(t){var n,r=t.__v,i=r.__e,a=[],o=[],s=t.__P;s&&((n=g({constructor:u},r)).__v=r.__v+1,e.vnode&&e.vnode(n),j(s,n,r,t.__n,s.namespaceURI,32&r.__u?[i]:null,a,i||x(r),32&r.__u,o),n.__v=r.__v,n.__.__k[n.__i]=n,M(a,n,o),r.__=r.__e=null,n.__e!=i&&C(n))}function C(e){if((e=e.__)&&e.__c&&!e.props.__P)return e.__e=null,e.__k.some(function(t){return t&&(e.__e=t.__e)}),C(e)}function w(t){(8&t.__g||(t.__g|=8,n.push(t),i++))&&r==e.debounceRendering||((r=e.debounceRendering)||queueMicrotask)(T)}function T(){try{for(var e,t=1;n.length;)n.length>t&&n.sort(a),e=n.shift(),t=n.length,8&e.__g&&S(e)}finally{(i=n.length)&&(r||queueMicrotask)(T)}}function ee(e,t,n,r,i,a,o,s,c,l,u){var p,m,h,g,_,v,y=r.__k||f,b=t.length;for(c=E(n,t,y,c,b),p=0;p<b;p++)(h=n.__k[p])!=null&&(m=~h.__i&&y[h.__i]||d,h.__i=p,v=j(e,h,m,i,a,o,s,c,l,u),g=h.__e,(m.ref!=h.ref||8&m.__u)&&(m.ref&&ae(m.ref,null,h,m),h.ref&&u.push(h.ref,h.__c||g,h)),_||=g,4&h.__u?(c=D(h,c,e,!m.__v),m.__e&&(m.__e=null)):typeof h.type==`function`&&v!==void 0?c=v:g&&(c=g.nextSibling),h.__u&=-21);return n.__e=_,c}function E(e,t,n,r,i){var a,o,s,c,l,d,f,p,h,g=n.length,_=g,b=0,S=0,C=e.__k=Array(i);for(a=0;a<i;a++)(o=t[a])!=null&&typeof o!=`boolean`&&typeof o!=`function`?(typeof o!=`object`||o.constructor===String?o=C[a]=v(null,o):m(o)?o=C[a]=v(y,{children:o}):o.constructor===u&&o.__b?o=C[a]=v(o.type,o.props,o.key,o.ref,o.__v):C[a]=o,c=a+b,o.__=e,o.__b=e.__b+1,s=null,~(l=o.__i=O(o,n,c,_))&&(_--,(s=n[l])&&(s.__u|=2)),s&&s.__v?(o.__u|=16,l==c-1?b--:l==c+1?b++:l!=c&&(l>c?b--:b++,S=1)):(~l||(i>g?b--:i<g&&b++),typeof o.type!=`function`&&(o.__u|=4))):C[a]=null;if(S){for(d=[],f=[],a=0;a<i;a++)if((o=C[a])&&16&o.__u){for(b=0,p=d.length;b<p;)d[h=b+p>>1]<o.__i?b=h+1:p=h;d[b]=o.__i,f[a]=b+1}for(b=d.length;a--;)f[a]&&(f[a]==b?b--:C[a].__u|=4)}if(_)for(a=0;a<g;a++)!(s=n[a])||2&s.__u||(s.__e==r&&(r=x(s)),oe(s,s));return r}function D(e,t,n,r){var i,a,o,s;if(typeof e.type==`function`){if(e.props.__P)return t;if(i=e.__k)for(a=0;a<i.length;a++)i[a]&&(i[a].__=e,t=D(i[a],t,n,!1));return t}for(t&&!t.parentNode&&(t=x(e))&&!t.parentNode&&(t=null),o=e.__e,s=t;s&&s.nodeType==8;)s=s.nextSibling;for(o!=s&&(!r&&n.moveBefore&&o.parentNode?n.moveBefore(o,t):n.insertBefore(o,t||null)),t=o;(t&&=t.nextSibling)&&t.nodeType==8&&!t.data.startsWith(`$s`););return t}function O(e,t,n,r){var i,a=e.key,o=e.type,s=t[n],c=s&&!(2&s.__u);if(s===null&&a==null||c&&a==s.key&&o==s.type)return n;if(r>+!!c){for(i=n-1;i>=0;i--)if((s=t[i])&&!(2&s.__u)&&a==s.key&&o==s.type)return i;for(i=n+1;i<t.length;i++)if((s=t[i])&&!(2&s.__u)&&a==s.key&&o==s.type)return i}return-1}function k(e,t,n){n??=``,t[0]==`-`?e.setProperty(t,n):e[t]=n}function A(e,t,n,r,i){var a,o;if(t==`style`){if(typeof n==`string`)e.style.cssText=n;else{if(typeof r==`string`&&(e.style.cssText=r=``),r)for(t in r)n&&t in n||k(e.style,t);if(n)for(t in n)r&&n[t]==r[t]||k(e.style,t,n[t])}}else if(t[0]==`o`&&t[1]==`n`)typeof n!=`function`&&(n=null),typeof r!=`function`&&(r=null),(e.__e||={})[t]=n,n&&r||(o=l[t]||(l[t]=te(t)),(e.__a||={})[t]=c,a=t!=(t=t.replace(s,`$1`)),(t=t.slice(2))[0]<`a`&&(t=t.toLowerCase()),n?e.addEventListener(t,o,a):e.removeEventListener(t,o,a));else{if(i==`http://www.w3.org/2000/svg`)t=t.replace(/xlink(H|:h)/,`h`).replace(/sName$/,`s`);else if(t!=`width`&&t!=`height`&&t!=`href`&&t!=`list`&&t!=`form`&&t!=`tabIndex`&&t!=`download`&&t!=`rowSpan`&&t!=`colSpan`&&t!=`role`&&t!=`popover`&&t in e)try{e[t]=n??``;return}catch{}if(typeof n==`function`)return;n==null||!1===n&&t[4]!=`-`?e.removeAttribute(t):e.setAttribute(t,t==`popover`&&n==1?``:n)}}function te(t){return function(n){var r=this.__e;if(r){if(r=r[t],n[o]==null)n[o]=c++;else if(n[o]<this.__a[t])return;return r(e.event?e.event(n):n)}}}function j(t,n,r,i,a,o,s,c,l,d){var p,h,v,S,C,w,T,E,D,O,k,A,te,j,M,ae,N,P,F=n.type;if(n.constructor!==u)return null;128&r.__u&&(l=32&r.__u,p=r.__c.__z)&&(n.__u|=l,h=o=[],p.nodeType==8?c=ne(p,o):o.push(p),c=o[0]||c),(p=e.__b)&&p(n);n:if(typeof F==`function`){v=s.length;try{if(E=n.props,D=(p=F.prototype)&&p.render,O=(p=F.contextType)&&i[p.__c],k=p?O?O.props.value:p.__:i,(S=r.__c)?(n.__c=S,2&S.__g&&(S.__g|=1)):(D?n.__c=S=new F(E,k):(n.__c=S=new b(E,k),S.constructor=F,S.render=se),O&&O.sub(S),S.state||(S.state={}),S.__n=i,S.__g|=8,S.__h=[],S.__k=[]),D&&(S.__s||(S.__s=S.state),F.getDerivedStateFromProps&&(S.__s==S.state&&(S.__s=g({},S.__s)),g(S.__s,F.getDerivedStateFromProps(E,S.__s)))),C=S.props,w=S.state,S.__v=n,r.__c){if(E!==C&&D&&!F.getDerivedStateFromProps&&S.componentWillReceiveProps&&S.componentWillReceiveProps(E,k),n.__v==r.__v&&!(8&S.__g)||!(4&S.__g)&&S.shouldComponentUpdate&&!1===S.shouldComponentUpdate(E,S.__s,k)){n.__v!=r.__v&&(S.props=E,S.state=S.__s,S.__g&=-9),n.__e=r.__e,n.__k=r.__k,n.__k.some(function(e){e&&(e.__=n)}),f.push.apply(S.__h,S.__k),S.__k=[],S.__h.length&&s.push(S),c=x(r);break n}S.componentWillUpdate&&S.componentWillUpdate(E,S.__s,k),D&&S.componentDidUpdate&&S.__h.push(function(){S.componentDidUpdate(C,w,T)})}else D&&!F.getDerivedStateFromProps&&S.componentWillMount&&S.componentWillMount(),D&&S.componentDidMount&&S.__h.push(S.componentDidMount);S.context=k,S.props=E,S.__P=t,S.__g&=-5,A=e.__r,te=D?25:0;do S.__g&=-9,A&&A(n),p=S.render(S.props,S.state=S.__s,S.context);while(8&S.__g&&++te<25);D&&(f.push.apply(S.__h,S.__k),S.__k=[]),S.state=S.__s,S.getChildContext&&(i=g({},i,S.getChildContext())),D&&r.__c&&S.getSnapshotBeforeUpdate&&(T=S.getSnapshotBeforeUpdate(C,w)),j=p&&p.type===y&&p.key==null?p.props.children:p,E.__P&&(p=c,a=(t=E.__P).namespaceURI,l=o=null,r.props&&r.props.__P!=t&&(r.__k.some(function(e){e&&oe(e,e)}),r.__k=null),c=r.__k?x(r,0):null),c=ee(t,m(j)?j:[j],n,r,i,a,o,s,c,l,d),E.__P&&(n.__e=null,c=p),n.__u&=-161,h&&h.some(_),S.__h.length&&s.push(S),1&S.__g&&(S.__g&=-4)}catch(t){if(s.length=v,n.__v=null,l||o){if(t&&t.then){if(n.__u|=128|l,o){for(~(N=o.indexOf(c||void 0))||(N=o.length);(P=o[N-1])&&P.nodeType==8;)N--;for(;N<o.length;N++)if(P=o[N]){if(o[N]=null,M){if(P==ae)break}else{if(P.nodeType!=8)break;P.data.startsWith(`$s`)&&(ae=ne(M=P))}}}if(!M){for(;c&&c.nodeType==8&&c.nextSibling;)c=c.nextSibling;M=c}(p=ne(M=n.__c.__z||(n.__c.__z=M)))?(n.__e=M,c=p):n.__e=c,c&&=c.nextSibling}else o&&o.some(_)}else n.__e=r.__e;n.__k||=r.__k||[],t&&t.then||re(n),e.__e(t,n,r)}}else c=n.__e=ie(r.__e,n,r,i,a,o,s,l,d,t);return(p=e.diffed)&&p(n),c}function ne(e,t){if(e&&e.nodeType==8&&e.data.startsWith(`$s`))for(var n=1;e=e.nextSibling;){if(e.nodeType==8){if(e.data.startsWith(`$s`))n++;else if(e.data.startsWith(`/$s`)&&!--n)return e}t&&t.push(e)}}function re(e){e&&(e.__c&&(e.__c.__g|=4),e.__k&&e.__k.some(re))}function M(t,n,r){for(var i=0;i<r.length;)ae(r[i++],r[i++],r[i++]);e.__c&&e.__c(n,t),t.some(function(n){try{t=n.__h,n.__h=[],t.some(function(e){e.call(n)})}catch(t){e.__e(t,n.__v)}})}function ie(t,n,r,i,a,o,s,c,l,u){var f,g,v,y,b,S,C,w,T=r.props||d,E=n.props,D=n.type;if(D==`svg`?a=`http://www.w3.org/2000/svg`:D==`math`?a=`http://www.w3.org/1998/Math/MathML`:a||=`http://www.w3.org/1999/xhtml`,o){for(f=0;f<o.length;f++)if((b=o[f])&&(D?b.localName==D:b.nodeType==3)){t=b,o[f]=null;break}}if(!t){if(w=u.ownerDocument||document,!D)return w.createTextNode(E);t=w.createElementNS(a,D,E.is?E:u),c&&=(e.__m&&e.__m(n,o),!1),o=null}if(D){if(u=D==`template`&&t.content||t,o=D==`textarea`&&E.defaultValue!=null?null:o&&h.call(u.childNodes),!c&&o)for(T={},f=0;f<t.attributes.length;f++)T[(b=t.attributes[f]).name]=b.value;for(f in T)b=T[f],f==`dangerouslySetInnerHTML`?v=b:f==`children`||f in E||f==`value`&&`defaultValue`in E||f==`checked`&&`defaultChecked`in E||A(t,f,null,b,a);for(f in E)b=E[f],f==`children`?y=b:f==`dangerouslySetInnerHTML`?g=b:f==`value`?S=b:f==`checked`?C=b:c&&typeof b!=`function`||T[f]===b||A(t,f,b,T[f],a);g?(c||v&&(g.__html==v.__html||g.__html==t.innerHTML)||(t.innerHTML=g.__html),n.__k=[]):(v&&(t.textContent=``),(D==`foreignObject`||a==`http://www.w3.org/1998/Math/MathML`&&p.test(D))&&(a=`http://www.w3.org/1999/xhtml`),ee(u,m(y)?y:[y],n,r,i,a,o,s,o?o[0]:r.__k&&x(r,0),c,l),o&&o.some(_)),c&&D!=`textarea`||(f=`value`,D==`progress`&&S==null?t.removeAttribute(f):S==null||S===t[f]&&(D!=`progress`||S)||A(t,f,S,T[f],a),f=`checked`,C!=null&&C!=t[f]&&A(t,f,C,T[f],a))}else T===E||c&&t.data==E||(t.data=E);return t}function ae(t,n,r,i){try{typeof t==`function`?n?n.__x=t(n)||1:(i&&=i.__c||i.__e)&&(n=i.__x)&&(i.__x=null,typeof n==`function`?n():t(null)):t.current=n}catch(t){e.__e(t,r)}}function oe(t,n,r){var i,a,o,s;if(e.unmount&&e.unmount(t),!(i=t.ref)||i.current&&i.current!=t.__e||ae(i,null,n,t),i=t.__c){if(i.componentWillUnmount)try{i.componentWillUnmount()}catch(t){e.__e(t,n)}i.__P=i.__n=null}if(i=t.__k)for(s=0;s<i.length;s++)i[s]&&oe(i[s],n,typeof t.type!=`function`||r&&!t.props.__P);!r&&(i=t.__c)&&(i=i.__z)&&(a=ne(i,o=[]))&&(i==t.__e&&o.some(_),_(a),_(i)),r||_(t.__e),t.__e=t.__c=t.__=null}function se(e,t,n){return this.constructor(e,n)}function N(t,n){var r,i,a,o;e.__&&e.__(t,n),n.nodeType==9&&(n=n.documentElement),i=(r=t&&32&t.__u)?null:n.__k,n.__k=v(y,{children:[t]}),a=[],o=[],j(n,n.__k,i||d,d,n.namespaceURI,i?null:n.firstChild?h.call(n.childNodes):null,a,i?i.__e:n.firstChild,r,o),M(a,n.__k,o),n.__k.props.children=null}e={__e:function(e,t,n,r){for(var a,o,s;t=t.__;)if((a=t.__c)&&!(1&a.__g)){a.__g|=4;try{if((s=(o=a.constructor)&&o.getDerivedStateFromError)&&a.setState(o.getDerivedStateFromError(e)),a.componentDidCatch&&(a.componentDidCatch(e,r||{}),s=1),s&&8&a.__g)return void(a.__g|=2)}catch(t){e=t}}throw i=0,e}},t=0,b.prototype.setState=function(e,t){var n=this.__s;n&&n!=this.state||(n=this.__s=g({},this.state)),typeof e==`function`&&(e=e(g({},n),this.props)),e&&(g(n,e),this.__v&&(t&&this.__k.push(t),w(this)))},b.prototype.forceUpdate=function(e){this.__v&&(this.__g|=4,e&&this.__h.push(e),w(this))},b.prototype.render=y,n=[],i=0,a=function(e,t){return e.__v.__b-t.__v.__b},o=Symbol(),s=/(PointerCapture)$|Capture$/i,c=0,l={};var P,F,ce,le,ue=Object.is,de=0,fe=[],pe=[],I=e,me=I.__b,he=I.__r,ge=I.diffed,_e=I.__c,ve=I.unmount,ye=I.__;function be(e,t){I.__h&&I.__h(F,e,de||t),de=0;var n=F.__H||(F.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function L(e){return de=1,xe(Ae,e)}function xe(e,t,n){var r=be(P++,2);if(r.t=e,!r.__c&&(r.__=[n?n(t):Ae(void 0,t),function(e){var t=(r.__N||r.__)[0],n=r.t(t,e);ue(t,n)||(r.__N=[n,r.__[1]],r.__c.setState({}))}],r.__c=F,!F.__f)){F.__f=!0;var i=F.shouldComponentUpdate;F.shouldComponentUpdate=function(e,t,n){var r=this.__H;if(!r)return!0;var a=!1,o=this.props!=e;if(r.__.some(function(e){e.__N&&(a=!0,ue(e.__[0],e.__N[0])||(o=!0))}),i){var s=i.call(this,e,t,n);return a?s||o:s}return!a||o}}return r.__}function R(e,t){var n=be(P++,3);!I.__s&&ke(n.__H,t)&&(n.__P=!0,n.__=e,n.u=t,F.__H.__h.push(n))}function Se(e){return de=5,Ce(function(){return{current:e}},[])}function Ce(e,t){var n=be(P++,7);return ke(n.__H,t)&&(n.__=e(),n.__H=t),n.__}function we(){var e;do{for(;e=pe.shift();)try{z(e)}catch(t){I.__e(t,{__:(e=e.__P)&&e.__v})}for(;e=fe.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(z),t.__h.some(Oe),t.__h=[]}catch(n){t.__h=[],I.__e(n,e.__v)}}}while(pe.length)}I.__b=function(e){F=null,me&&me(e)},I.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),ye&&ye(e,t)},I.__r=function(e){he&&he(e),P=0;var t=(F=e.__c).__H;t&&(ce==F?F.__h=[]:(t.__h.some(z),t.__h.some(Oe),P=0),t.__h=[],t.__.some(function(e){e.__N&&(e.__=e.__N),e.u=e.__N=void 0})),ce=F},I.diffed=function(e){ge&&ge(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&De(fe.push(t)),t.__H.__.some(function(e){e.u&&(e.__H=e.u)})),ce=F=null},I.__c=function(e,t){t.some(function(e){try{e.__h.some(z),e.__h=e.__h.filter(function(e){return!e.__||Oe(e)})}catch(t){e.__h=[function(){throw t}]}}),_e&&_e(e,t)},I.unmount=function(e){ve&&ve(e);var t,n,r=e.__c;r&&r.__H&&(r.__H.__.some(function(r){try{if(r.__P&&r.__c){if(n===void 0){for(n=e.__;n&&(!n.__c||!n.__c.__P);)n=n.__;n&&=n.__c}r.__P=n,De(pe.push(r))}else z(r)}catch(e){t=e}}),r.__H=void 0,t&&I.__e(t,r.__v))};var Te=typeof requestAnimationFrame==`function`;function Ee(e){var t,n=function(){clearTimeout(r),Te&&cancelAnimationFrame(t),setTimeout(e)},r=setTimeout(n,35);Te&&(t=requestAnimationFrame(n))}function De(e){e!=1&&le==I.requestAnimationFrame||((le=I.requestAnimationFrame)||Ee)(we)}function z(e){var t=F,n=e.__c;typeof n==`function`&&(e.__c=void 0,n()),F=t}function Oe(e){var t=F;e.__c=e.__(),F=t}function ke(e,t){return!e||e.length!=t.length||t.some(function(t,n){return!ue(t,e[n])})}function Ae(e,t){return typeof t==`function`?t(e):t}function B(e){return e===null?`null`:Array.isArray(e)?`array`:typeof e}function V(e){return B(e)===`object`}function je(e){return Array.isArray(e)&&e.length>0&&e.every(e=>`message`in e)}function Me(e,t){return e.length<124?e:t}var H=(e=>(e[e.InternalServerError=4500]=`InternalServerError`,e[e.InternalClientError=4005]=`InternalClientError`,e[e.BadRequest=4400]=`BadRequest`,e[e.BadResponse=4004]=`BadResponse`,e[e.Unauthorized=4401]=`Unauthorized`,e[e.Forbidden=4403]=`Forbidden`,e[e.SubprotocolNotAcceptable=4406]=`SubprotocolNotAcceptable`,e[e.ConnectionInitialisationTimeout=4408]=`ConnectionInitialisationTimeout`,e[e.ConnectionAcknowledgementTimeout=4504]=`ConnectionAcknowledgementTimeout`,e[e.SubscriberAlreadyExists=4409]=`SubscriberAlreadyExists`,e[e.TooManyInitialisationRequests=4429]=`TooManyInitialisationRequests`,e))(H||{}),U=(e=>(e.ConnectionInit=`connection_init`,e.ConnectionAck=`connection_ack`,e.Ping=`ping`,e.Pong=`pong`,e.Subscribe=`subscribe`,e.Next=`next`,e.Error=`error`,e.Complete=`complete`,e))(U||{});function Ne(e){if(!V(e))throw Error(`Message is expected to be an object, but got ${B(e)}`);if(!e.type)throw Error(`Message is missing the 'type' property`);if(typeof e.type!=`string`)throw Error(`Message is expects the 'type' property to be a string, but got ${B(e.type)}`);switch(e.type){case`connection_init`:case`connection_ack`:case`ping`:case`pong`:if(e.payload!=null&&!V(e.payload))throw Error(`"${e.type}" message expects the 'payload' property to be an object or nullish or missing, but got "${e.payload}"`);break;case`subscribe`:if(typeof e.id!=`string`)throw Error(`"${e.type}" message expects the 'id' property to be a string, but got ${B(e.id)}`);if(!e.id)throw Error(`"${e.type}" message requires a non-empty 'id' property`);if(!V(e.payload))throw Error(`"${e.type}" message expects the 'payload' property to be an object, but got ${B(e.payload)}`);if(typeof e.payload.query!=`string`)throw Error(`"${e.type}" message payload expects the 'query' property to be a string, but got ${B(e.payload.query)}`);if(e.payload.variables!=null&&!V(e.payload.variables))throw Error(`"${e.type}" message payload expects the 'variables' property to be a an object or nullish or missing, but got ${B(e.payload.variables)}`);if(e.payload.operationName!=null&&B(e.payload.operationName)!==`string`)throw Error(`"${e.type}" message payload expects the 'operationName' property to be a string or nullish or missing, but got ${B(e.payload.operationName)}`);if(e.payload.extensions!=null&&!V(e.payload.extensions))throw Error(`"${e.type}" message payload expects the 'extensions' property to be a an object or nullish or missing, but got ${B(e.payload.extensions)}`);break;case`next`:if(typeof e.id!=`string`)throw Error(`"${e.type}" message expects the 'id' property to be a string, but got ${B(e.id)}`);if(!e.id)throw Error(`"${e.type}" message requires a non-empty 'id' property`);if(!V(e.payload))throw Error(`"${e.type}" message expects the 'payload' property to be an object, but got ${B(e.payload)}`);break;case`error`:if(typeof e.id!=`string`)throw Error(`"${e.type}" message expects the 'id' property to be a string, but got ${B(e.id)}`);if(!e.id)throw Error(`"${e.type}" message requires a non-empty 'id' property`);if(!je(e.payload))throw Error(`"${e.type}" message expects the 'payload' property to be an array of GraphQL errors, but got ${JSON.stringify(e.payload)}`);break;case`complete`:if(typeof e.id!=`string`)throw Error(`"${e.type}" message expects the 'id' property to be a string, but got ${B(e.id)}`);if(!e.id)throw Error(`"${e.type}" message requires a non-empty 'id' property`);break;default:throw Error(`Invalid message 'type' property "${e.type}"`)}return e}function Pe(e,t){return Ne(typeof e==`string`?JSON.parse(e,t):e)}function Fe(e,t){return Ne(e),JSON.stringify(e,t)}function Ie(e){let{url:t,connectionParams:n,lazy:r=!0,onNonLazyError:i=console.error,lazyCloseTimeout:a=0,keepAlive:o=0,disablePong:s,connectionAckWaitTimeout:c=0,retryAttempts:l=5,retryWait:u=async function(e){let t=2**e;await new Promise(e=>setTimeout(e,t*1e3+Math.floor(Math.random()*2700+300)))},shouldRetry:d=Re,on:f,webSocketImpl:p,generateID:m=function(){return`xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`.replace(/[xy]/g,e=>{let t=Math.random()*16|0;return(e==`x`?t:t&3|8).toString(16)})},jsonMessageReplacer:h,jsonMessageReviver:g}=e,_;if(p){if(!Be(p))throw Error(`Invalid WebSocket implementation provided`);_=p}else typeof WebSocket<`u`?_=WebSocket:typeof global<`u`?_=global.WebSocket||global.MozWebSocket:typeof window<`u`&&(_=window.WebSocket||window.MozWebSocket);if(!_)throw Error("WebSocket implementation missing; on Node you can `import WebSocket from 'ws';` and pass `webSocketImpl: WebSocket` to `createClient`");let v=_,y=(()=>{let e=(()=>{let e={};return{on(t,n){return e[t]=n,()=>{delete e[t]}},emit(t){`id`in t&&e[t.id]?.(t)}}})(),t={connecting:f?.connecting?[f.connecting]:[],opened:f?.opened?[f.opened]:[],connected:f?.connected?[f.connected]:[],ping:f?.ping?[f.ping]:[],pong:f?.pong?[f.pong]:[],message:f?.message?[e.emit,f.message]:[e.emit],closed:f?.closed?[f.closed]:[],error:f?.error?[f.error]:[]};return{onMessage:e.on,on(e,n){let r=t[e];return r.push(n),()=>{let e=r.indexOf(n);e>-1&&r.splice(e,1)}},emit(e,...n){for(let r of[...t[e]])r(...n)}}})();function b(e){let t=[y.on(`error`,n=>{t.forEach(e=>e()),e(n)}),y.on(`closed`,n=>{t.forEach(e=>e()),e(n)})];return()=>t.forEach(e=>e())}let x,S=0,C,w=!1,T=0,ee=!1;async function E(){clearTimeout(C);let[e,r]=await(x??=new Promise((e,r)=>(async()=>{if(w){if(await u(T),!S)return x=void 0,r({code:1e3,reason:`All Subscriptions Gone`});T++}y.emit(`connecting`,w);let i=new v(typeof t==`function`?await t():t,`graphql-transport-ws`),a,l;function d(){isFinite(o)&&o>0&&(clearTimeout(l),l=setTimeout(()=>{i.readyState===v.OPEN&&(i.send(Fe({type:U.Ping})),y.emit(`ping`,!1,void 0))},o))}b(e=>{x=void 0,clearTimeout(a),clearTimeout(l),r(e),e instanceof Le&&(i.close(4499,`Terminated`),i.onerror=null,i.onclose=null)}),i.onerror=e=>y.emit(`error`,e),i.onclose=e=>y.emit(`closed`,e),i.onopen=async()=>{try{y.emit(`opened`,i);let e=typeof n==`function`?await n():n;if(i.readyState!==v.OPEN)return;i.send(Fe(e?{type:U.ConnectionInit,payload:e}:{type:U.ConnectionInit},h)),isFinite(c)&&c>0&&(a=setTimeout(()=>{i.close(H.ConnectionAcknowledgementTimeout,`Connection acknowledgement timeout`)},c)),d()}catch(e){y.emit(`error`,e),i.close(H.InternalClientError,Me(e instanceof Error?e.message:String(e),`Internal client error`))}};let f=!1;i.onmessage=({data:t})=>{try{let n=Pe(t,g);if(y.emit(`message`,n),n.type===`ping`||n.type===`pong`){y.emit(n.type,!0,n.payload),n.type===`pong`?d():s||(i.send(Fe(n.payload?{type:U.Pong,payload:n.payload}:{type:U.Pong},h)),y.emit(`pong`,!1,n.payload));return}if(f)return;if(n.type!==U.ConnectionAck)throw Error(`First message cannot be of type ${n.type}`);clearTimeout(a),f=!0,y.emit(`connected`,i,n.payload,w),w=!1,T=0;let r=new Promise((e,t)=>b(t));r.catch(()=>{}),e([i,r])}catch(e){i.onmessage=null,y.emit(`error`,e),i.close(H.BadResponse,Me(e instanceof Error?e.message:String(e),`Bad response`))}}})()));e.readyState===v.CLOSING&&await r;let i=()=>{},l=new Promise(e=>i=e);return[e,i,new Promise((t,n)=>{let i=b(n);e.readyState!==v.OPEN&&r.catch(n),l.then(()=>{if(i(),!S){let t=()=>e.close(1e3,`Normal Closure`);isFinite(a)&&a>0?(clearTimeout(C),C=setTimeout(()=>{!S&&e.readyState===v.OPEN&&t()},a)):t()}t()})})]}function D(e){if(Re(e)&&(ze(e.code)||[H.InternalServerError,H.InternalClientError,H.BadRequest,H.BadResponse,H.Unauthorized,H.SubprotocolNotAcceptable,H.SubscriberAlreadyExists,H.TooManyInitialisationRequests].includes(e.code)))throw e;if(ee)return!1;if(Re(e)&&e.code===1e3)return S>0;if(!l||T>=l||!d(e))throw e;return w=!0}r||(async()=>{for(S++;;)try{let[,,e]=await E();await e}catch(e){try{if(!D(e))return}catch(e){return i?.(e)}}})();function O(e,t){let n=m(e),r=!1,i=!1,a=()=>{S--,r=!0};return(async()=>{for(S++;;)try{let[o,s,c]=await E();if(r)return c.catch(()=>{}),s();let l=y.onMessage(n,e=>{switch(e.type){case U.Next:t.next(e.payload);return;case U.Error:i=!0,r=!0,t.error(e.payload),a();return;case U.Complete:r=!0,a();return}});o.send(Fe({id:n,type:U.Subscribe,payload:e},h)),a=()=>{!r&&o.readyState===v.OPEN&&o.send(Fe({id:n,type:U.Complete},h)),S--,r=!0,s()},await c.finally(l);return}catch(e){if(!D(e))return}})().then(()=>{i||t.complete()}).catch(e=>{t.error(e)}),()=>{r||a()}}return{on:y.on,subscribe:O,iterate(e){let t=[],n={done:!1,error:null,resolve:()=>{}},r=O(e,{next(e){t.push(e),n.resolve()},error(e){n.done=!0,n.error=e,n.resolve()},complete(){n.done=!0,n.resolve()}}),i=async function*(){for(;;){for(t.length||await new Promise(e=>n.resolve=e);t.length;)yield t.shift();if(n.error)throw n.error;if(n.done)return}}();return i.throw=async e=>(n.done||(n.done=!0,n.error=e,n.resolve()),{done:!0,value:void 0}),i.return=async()=>(r(),{done:!0,value:void 0}),i},async dispose(){if(ee=!0,x){let[e]=await x;e.close(1e3,`Normal Closure`)}},terminate(){x&&y.emit(`closed`,new Le)}}}var Le=class extends Error{name=`TerminatedCloseEvent`;message=`4499: Terminated`;code=4499;reason=`Terminated`;wasClean=!1};function Re(e){return V(e)&&`code`in e&&`reason`in e}function ze(e){return![1e3,1001,1006,1005,1012,1013,1014].includes(e)&&e>=1e3&&e<=1999}function Be(e){return typeof e==`function`&&`constructor`in e&&`CLOSED`in e&&`CLOSING`in e&&`CONNECTING`in e&&`OPEN`in e}var W=class extends String{__apiType;value;__meta__;constructor(e,t){super(e),this.value=e,this.__meta__=t}toString(){return this.value}},Ve=new W(`
    fragment NotificationItem on Notification {
  id
  kind
  createdAt
  updatedAt
  read
  actorCount
  text
  actor {
    id
    nickName
    icon
  }
  blog {
    id
    title
  }
  order {
    id
  }
  voucher {
    id
    title
    beginTime
    shop {
      id
      name
    }
  }
}
    `,{fragmentName:`NotificationItem`}),He=new W(`
    fragment ShopItem on Shop {
  id
  name
  area
  avgPrice
  score
  comments
  images {
    url
  }
}
    `,{fragmentName:`ShopItem`}),Ue=new W(`
    fragment NoteItem on Blog {
  id
  title
  rating
  likedCount
  commentCount
  author {
    nickName
  }
  shop {
    name
  }
}
    `,{fragmentName:`NoteItem`}),We={"mutation Refresh($t: String!) { refreshToken(token: $t) { accessToken refreshToken user { id nickName role } } }":new W(`
    mutation Refresh($t: String!) {
  refreshToken(token: $t) {
    accessToken
    refreshToken
    user {
      id
      nickName
      role
    }
  }
}
    `),"query DealsNearby($lon: Float!, $lat: Float!, $r: Int, $sort: DealSort, $a: String) {\n  dealsNearby(longitude: $lon, latitude: $lat, radius: $r, sort: $sort, first: 10, after: $a) {\n    edges { node { distanceMeters discount beginsAt endsAt secondsLeft remainingStock live\n      voucher { id title payValue actualValue kind favoritedByMe remindedByMe }\n      shop { id name area score images { url } } } }\n    pageInfo { hasNextPage endCursor } } }":new W(`
    query DealsNearby($lon: Float!, $lat: Float!, $r: Int, $sort: DealSort, $a: String) {
  dealsNearby(
    longitude: $lon
    latitude: $lat
    radius: $r
    sort: $sort
    first: 10
    after: $a
  ) {
    edges {
      node {
        distanceMeters
        discount
        beginsAt
        endsAt
        secondsLeft
        remainingStock
        live
        voucher {
          id
          title
          payValue
          actualValue
          kind
          favoritedByMe
          remindedByMe
        }
        shop {
          id
          name
          area
          score
          images {
            url
          }
        }
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `),"query MyFavorites($a: String) { myFavorites(first: 20, after: $a) {\n  edges { node { id createdAt\n    shop { id name area avgPrice score comments images { url } favoritedByMe favoriteCount }\n    voucher { id title payValue actualValue kind endTime favoritedByMe shop { id name } } } }\n  pageInfo { hasNextPage endCursor } } }":new W(`
    query MyFavorites($a: String) {
  myFavorites(first: 20, after: $a) {
    edges {
      node {
        id
        createdAt
        shop {
          id
          name
          area
          avgPrice
          score
          comments
          images {
            url
          }
          favoritedByMe
          favoriteCount
        }
        voucher {
          id
          title
          payValue
          actualValue
          kind
          endTime
          favoritedByMe
          shop {
            id
            name
          }
        }
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `),"query UnreadCount { unreadNotificationCount }":new W(`
    query UnreadCount {
  unreadNotificationCount
}
    `),"subscription NotificationAdded { notificationAdded { id } }":new W(`
    subscription NotificationAdded {
  notificationAdded {
    id
  }
}
    `),"fragment NotificationItem on Notification { id kind createdAt updatedAt read actorCount text\n  actor { id nickName icon } blog { id title } order { id } voucher { id title beginTime shop { id name } } }":Ve,"query Notifications($a: String, $unread: Boolean) {\n  notifications(first: 20, after: $a, unreadOnly: $unread) { edges { node { ...NotificationItem } } pageInfo { hasNextPage endCursor } } }":new W(`
    query Notifications($a: String, $unread: Boolean) {
  notifications(first: 20, after: $a, unreadOnly: $unread) {
    edges {
      node {
        ...NotificationItem
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment NotificationItem on Notification {
  id
  kind
  createdAt
  updatedAt
  read
  actorCount
  text
  actor {
    id
    nickName
    icon
  }
  blog {
    id
    title
  }
  order {
    id
  }
  voucher {
    id
    title
    beginTime
    shop {
      id
      name
    }
  }
}`),"mutation MarkNotificationsRead($upTo: ID) { markNotificationsRead(upTo: $upTo) }":new W(`
    mutation MarkNotificationsRead($upTo: ID) {
  markNotificationsRead(upTo: $upTo)
}
    `),"query NotificationSettings { notificationSettings { likes comments follows orders followedNotes shopSales } }":new W(`
    query NotificationSettings {
  notificationSettings {
    likes
    comments
    follows
    orders
    followedNotes
    shopSales
  }
}
    `),"mutation UpdateNotificationSettings($in: NotificationSettingsInput!) {\n  updateNotificationSettings(input: $in) { likes comments follows orders followedNotes shopSales } }":new W(`
    mutation UpdateNotificationSettings($in: NotificationSettingsInput!) {
  updateNotificationSettings(input: $in) {
    likes
    comments
    follows
    orders
    followedNotes
    shopSales
  }
}
    `),"mutation Logout{ logout }":new W(`
    mutation Logout {
  logout
}
    `),"mutation SendLoginCode($p: String!) { sendLoginCode(phone: $p) { sent devCode } }":new W(`
    mutation SendLoginCode($p: String!) {
  sendLoginCode(phone: $p) {
    sent
    devCode
  }
}
    `),"mutation Login($p: String!, $c: String!) { login(phone: $p, code: $c) { accessToken refreshToken user { id nickName role } } }":new W(`
    mutation Login($p: String!, $c: String!) {
  login(phone: $p, code: $c) {
    accessToken
    refreshToken
    user {
      id
      nickName
      role
    }
  }
}
    `),"fragment ShopItem on Shop { id name area avgPrice score comments images { url } }":He,"query ShopTypes { shopTypes { id name icon } }":new W(`
    query ShopTypes {
  shopTypes {
    id
    name
    icon
  }
}
    `),"query NearbyMine($t: ID!, $lon: Float!, $lat: Float!, $a: String) {\n        nearbyShops(typeId: $t, longitude: $lon, latitude: $lat, first: 10, after: $a) {\n          edges { distanceMeters node { ...ShopItem favoritedByMe favoriteCount } } pageInfo { hasNextPage endCursor } } }":new W(`
    query NearbyMine($t: ID!, $lon: Float!, $lat: Float!, $a: String) {
  nearbyShops(typeId: $t, longitude: $lon, latitude: $lat, first: 10, after: $a) {
    edges {
      distanceMeters
      node {
        ...ShopItem
        favoritedByMe
        favoriteCount
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment ShopItem on Shop {
  id
  name
  area
  avgPrice
  score
  comments
  images {
    url
  }
}`),"query Nearby($t: ID!, $lon: Float!, $lat: Float!, $a: String) {\n        nearbyShops(typeId: $t, longitude: $lon, latitude: $lat, first: 10, after: $a) {\n          edges { distanceMeters node { ...ShopItem } } pageInfo { hasNextPage endCursor } } }":new W(`
    query Nearby($t: ID!, $lon: Float!, $lat: Float!, $a: String) {
  nearbyShops(typeId: $t, longitude: $lon, latitude: $lat, first: 10, after: $a) {
    edges {
      distanceMeters
      node {
        ...ShopItem
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment ShopItem on Shop {
  id
  name
  area
  avgPrice
  score
  comments
  images {
    url
  }
}`),"query ShopsMine($t: ID, $n: String, $a: String) { shops(typeId: $t, name: $n, first: 10, after: $a) {\n        edges { node { ...ShopItem favoritedByMe favoriteCount } } pageInfo { hasNextPage endCursor } } }":new W(`
    query ShopsMine($t: ID, $n: String, $a: String) {
  shops(typeId: $t, name: $n, first: 10, after: $a) {
    edges {
      node {
        ...ShopItem
        favoritedByMe
        favoriteCount
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment ShopItem on Shop {
  id
  name
  area
  avgPrice
  score
  comments
  images {
    url
  }
}`),"query Shops($t: ID, $n: String, $a: String) { shops(typeId: $t, name: $n, first: 10, after: $a) {\n        edges { node { ...ShopItem } } pageInfo { hasNextPage endCursor } } }":new W(`
    query Shops($t: ID, $n: String, $a: String) {
  shops(typeId: $t, name: $n, first: 10, after: $a) {
    edges {
      node {
        ...ShopItem
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment ShopItem on Shop {
  id
  name
  area
  avgPrice
  score
  comments
  images {
    url
  }
}`),"query Shop($id: ID!) { shop(id: $id) { id name address avgPrice score comments images { url width height } openHours type { name }\n      favoritedByMe favoriteCount\n      vouchers { id title payValue actualValue kind stock beginTime endTime favoritedByMe remindedByMe reminderCount }\n      blogs(first: 5) { edges { node { id title rating likedCount author { nickName } } } } } }":new W(`
    query Shop($id: ID!) {
  shop(id: $id) {
    id
    name
    address
    avgPrice
    score
    comments
    images {
      url
      width
      height
    }
    openHours
    type {
      name
    }
    favoritedByMe
    favoriteCount
    vouchers {
      id
      title
      payValue
      actualValue
      kind
      stock
      beginTime
      endTime
      favoritedByMe
      remindedByMe
      reminderCount
    }
    blogs(first: 5) {
      edges {
        node {
          id
          title
          rating
          likedCount
          author {
            nickName
          }
        }
      }
    }
  }
}
    `),"subscription SaleProgress($v: ID!) { saleProgress(voucherId: $v) { remaining soldOut phase } }":new W(`
    subscription SaleProgress($v: ID!) {
  saleProgress(voucherId: $v) {
    remaining
    soldOut
    phase
  }
}
    `),"subscription OrderStatus($o: ID!) { orderStatus(orderId: $o) { orderId status reason } }":new W(`
    subscription OrderStatus($o: ID!) {
  orderStatus(orderId: $o) {
    orderId
    status
    reason
  }
}
    `),"query Order($o: ID!) { order(id: $o) { redemptionCode } }":new W(`
    query Order($o: ID!) {
  order(id: $o) {
    redemptionCode
  }
}
    `),"mutation ClaimVoucher($v: ID!) { claimVoucher(voucherId: $v) { orderId status } }":new W(`
    mutation ClaimVoucher($v: ID!) {
  claimVoucher(voucherId: $v) {
    orderId
    status
  }
}
    `),"mutation JoinWaitlist($v: ID!) { joinWaitlist(voucherId: $v) { id status position } }":new W(`
    mutation JoinWaitlist($v: ID!) {
  joinWaitlist(voucherId: $v) {
    id
    status
    position
  }
}
    `),"mutation PayOrder($o: ID!) { payOrder(orderId: $o) { id status } }":new W(`
    mutation PayOrder($o: ID!) {
  payOrder(orderId: $o) {
    id
    status
  }
}
    `),"mutation CancelOrder($o: ID!) { cancelOrder(orderId: $o) { status } }":new W(`
    mutation CancelOrder($o: ID!) {
  cancelOrder(orderId: $o) {
    status
  }
}
    `),"query MyOrders($s: [OrderStatus!]) { myOrders(status: $s, first: 20) { edges { node { id status amount voucher { title } shop { name } redemptionCode } } } }":new W(`
    query MyOrders($s: [OrderStatus!]) {
  myOrders(status: $s, first: 20) {
    edges {
      node {
        id
        status
        amount
        voucher {
          title
        }
        shop {
          name
        }
        redemptionCode
      }
    }
  }
}
    `),"query MySales { myShops { id name vouchers { id title kind stock beginTime endTime reminderCount } } }":new W(`
    query MySales {
  myShops {
    id
    name
    vouchers {
      id
      title
      kind
      stock
      beginTime
      endTime
      reminderCount
    }
  }
}
    `),"mutation CreateFlashSale($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }":new W(`
    mutation CreateFlashSale($in: CreateFlashSaleInput!) {
  createFlashSale(input: $in) {
    id
  }
}
    `),"subscription SaleStats($v: ID!) { saleStats(voucherId: $v) {\n      remaining accepted pending created paid used canceled failed claimsPerSecond at } }":new W(`
    subscription SaleStats($v: ID!) {
  saleStats(voucherId: $v) {
    remaining
    accepted
    pending
    created
    paid
    used
    canceled
    failed
    claimsPerSecond
    at
  }
}
    `),"fragment NoteItem on Blog { id title rating likedCount commentCount author { nickName } shop { name } }":Ue,"query FeedPage($a: String) { page: feed(first: 10, after: $a) { edges { node { ...NoteItem } } pageInfo { hasNextPage endCursor } } }":new W(`
    query FeedPage($a: String) {
  page: feed(first: 10, after: $a) {
    edges {
      node {
        ...NoteItem
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment NoteItem on Blog {
  id
  title
  rating
  likedCount
  commentCount
  author {
    nickName
  }
  shop {
    name
  }
}`),"query HotPage($a: String) { page: hotBlogs(first: 10, after: $a) { edges { node { ...NoteItem } } pageInfo { hasNextPage endCursor } } }":new W(`
    query HotPage($a: String) {
  page: hotBlogs(first: 10, after: $a) {
    edges {
      node {
        ...NoteItem
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment NoteItem on Blog {
  id
  title
  rating
  likedCount
  commentCount
  author {
    nickName
  }
  shop {
    name
  }
}`),"mutation Follow($u: ID!) { follow(userId: $u) }":new W(`
    mutation Follow($u: ID!) {
  follow(userId: $u)
}
    `),"mutation LikeBlog($id: ID!) { likeBlog(id: $id) { id } }":new W(`
    mutation LikeBlog($id: ID!) {
  likeBlog(id: $id) {
    id
  }
}
    `),"mutation UnlikeBlog($id: ID!) { unlikeBlog(id: $id) { id } }":new W(`
    mutation UnlikeBlog($id: ID!) {
  unlikeBlog(id: $id) {
    id
  }
}
    `),"mutation Unfollow($u: ID!) { unfollow(userId: $u) }":new W(`
    mutation Unfollow($u: ID!) {
  unfollow(userId: $u)
}
    `),"query Blog($id: ID!) { blog(id: $id) { id title content images { url width height } rating likedCount likedByMe\n      author { id nickName icon isFollowedByMe } shop { id name }\n      comments(first: 20) { edges { node { id content author { nickName } replies(first: 5) { edges { node { id content author { nickName } replyToUser { nickName } } } } } } } }\n      blogLikers(blogId: $id) { nickName } }":new W(`
    query Blog($id: ID!) {
  blog(id: $id) {
    id
    title
    content
    images {
      url
      width
      height
    }
    rating
    likedCount
    likedByMe
    author {
      id
      nickName
      icon
      isFollowedByMe
    }
    shop {
      id
      name
    }
    comments(first: 20) {
      edges {
        node {
          id
          content
          author {
            nickName
          }
          replies(first: 5) {
            edges {
              node {
                id
                content
                author {
                  nickName
                }
                replyToUser {
                  nickName
                }
              }
            }
          }
        }
      }
    }
  }
  blogLikers(blogId: $id) {
    nickName
  }
}
    `),"mutation CreateComment($b: ID!, $c: String!) { createComment(blogId: $b, content: $c) { id } }":new W(`
    mutation CreateComment($b: ID!, $c: String!) {
  createComment(blogId: $b, content: $c) {
    id
  }
}
    `),"mutation UploadImage($f: Upload!) { uploadImage(file: $f) { url } }":new W(`
    mutation UploadImage($f: Upload!) {
  uploadImage(file: $f) {
    url
  }
}
    `),"mutation CreateBlog($in: CreateBlogInput!) { createBlog(input: $in) { id } }":new W(`
    mutation CreateBlog($in: CreateBlogInput!) {
  createBlog(input: $in) {
    id
  }
}
    `),"query SignInStatus { signInStatus { month signedDays consecutiveDays } }":new W(`
    query SignInStatus {
  signInStatus {
    month
    signedDays
    consecutiveDays
  }
}
    `),"mutation SignIn{ signIn { month } }":new W(`
    mutation SignIn {
  signIn {
    month
  }
}
    `),"query Search($q: String!, $kind: SearchKind!, $a: String) {\n  search(query: $q, kind: $kind, first: 10, after: $a) {\n    edges { node { score snippet\n      shop { id name area avgPrice score images { url } }\n      note { id title likedCount author { nickName } shop { name } }\n      user { id nickName icon } } }\n    pageInfo { hasNextPage endCursor } } }":new W(`
    query Search($q: String!, $kind: SearchKind!, $a: String) {
  search(query: $q, kind: $kind, first: 10, after: $a) {
    edges {
      node {
        score
        snippet
        shop {
          id
          name
          area
          avgPrice
          score
          images {
            url
          }
        }
        note {
          id
          title
          likedCount
          author {
            nickName
          }
          shop {
            name
          }
        }
        user {
          id
          nickName
          icon
        }
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `),"mutation FavoriteShop($id: ID!) { mark: favoriteShop(shopId: $id) { id favoritedByMe favoriteCount } }":new W(`
    mutation FavoriteShop($id: ID!) {
  mark: favoriteShop(shopId: $id) {
    id
    favoritedByMe
    favoriteCount
  }
}
    `),"mutation UnfavoriteShop($id: ID!) { mark: unfavoriteShop(shopId: $id) { id favoritedByMe favoriteCount } }":new W(`
    mutation UnfavoriteShop($id: ID!) {
  mark: unfavoriteShop(shopId: $id) {
    id
    favoritedByMe
    favoriteCount
  }
}
    `),"mutation FavoriteVoucher($id: ID!) { mark: favoriteVoucher(voucherId: $id) { id favoritedByMe } }":new W(`
    mutation FavoriteVoucher($id: ID!) {
  mark: favoriteVoucher(voucherId: $id) {
    id
    favoritedByMe
  }
}
    `),"mutation UnfavoriteVoucher($id: ID!) { mark: unfavoriteVoucher(voucherId: $id) { id favoritedByMe } }":new W(`
    mutation UnfavoriteVoucher($id: ID!) {
  mark: unfavoriteVoucher(voucherId: $id) {
    id
    favoritedByMe
  }
}
    `),"mutation RemindMe($id: ID!) { mark: remindMe(voucherId: $id) { id remindedByMe reminderCount } }":new W(`
    mutation RemindMe($id: ID!) {
  mark: remindMe(voucherId: $id) {
    id
    remindedByMe
    reminderCount
  }
}
    `),"mutation CancelReminder($id: ID!) { mark: cancelReminder(voucherId: $id) { id remindedByMe reminderCount } }":new W(`
    mutation CancelReminder($id: ID!) {
  mark: cancelReminder(voucherId: $id) {
    id
    remindedByMe
    reminderCount
  }
}
    `),"query MyWaitlist { myWaitlist { id voucherId status position joinedAt offer { offeredAt expiresAt }\n  voucher { id title payValue actualValue shop { id name } } } }":new W(`
    query MyWaitlist {
  myWaitlist {
    id
    voucherId
    status
    position
    joinedAt
    offer {
      offeredAt
      expiresAt
    }
    voucher {
      id
      title
      payValue
      actualValue
      shop {
        id
        name
      }
    }
  }
}
    `),"mutation AcceptOffer($v: ID!) { acceptOffer(voucherId: $v) { id status } }":new W(`
    mutation AcceptOffer($v: ID!) {
  acceptOffer(voucherId: $v) {
    id
    status
  }
}
    `),"mutation DeclineOffer($v: ID!) { declineOffer(voucherId: $v) }":new W(`
    mutation DeclineOffer($v: ID!) {
  declineOffer(voucherId: $v)
}
    `),"mutation LeaveWaitlist($v: ID!) { leaveWaitlist(voucherId: $v) }":new W(`
    mutation LeaveWaitlist($v: ID!) {
  leaveWaitlist(voucherId: $v)
}
    `)};function G(e){return We[e]??{}}var Ge=G(`mutation Refresh($t: String!) { refreshToken(token: $t) { accessToken refreshToken user { id nickName role } } }`),K=window.localStorage,q={get access(){return K.getItem(`access`)||``},get refresh(){return K.getItem(`refresh`)||``},get user(){try{return JSON.parse(K.getItem(`user`)||`null`)}catch{return null}},save(e){K.setItem(`access`,e.accessToken),K.setItem(`refresh`,e.refreshToken),e.user&&K.setItem(`user`,JSON.stringify(e.user)),Qe()},clear(){K.removeItem(`access`),K.removeItem(`refresh`),K.removeItem(`user`),Qe()}},Ke=class extends Error{constructor(e){super(e.message),this.code=e.extensions?.code||`ERROR`,this.extensions=e.extensions||{}}};function qe(e){let t=String(e);if(!t.includes(`{`))throw Error(`a GraphQL document missing from src/gql: run make web`);return t}async function Je(e,t,n){return(await fetch(`/graphql`,{method:`POST`,headers:{"Content-Type":`application/json`,...n?{Authorization:`Bearer `+n}:{}},body:JSON.stringify({query:qe(e),variables:t})})).json()}var Ye=null;async function Xe(){return Ye??=Je(Ge,{t:q.refresh}).then(e=>(e.data?.refreshToken?q.save(e.data.refreshToken):q.clear(),!!e.data?.refreshToken)).finally(()=>{Ye=null}),Ye}async function J(e,t={}){let n=await Je(e,t,q.access);if(n.errors?.[0]?.extensions?.code===`UNAUTHENTICATED`&&q.refresh&&await Xe()&&(n=await Je(e,t,q.access)),n.errors?.length)throw new Ke(n.errors[0]);return n.data}var Ze=null;function Qe(){Ze&&=(Ze.dispose(),null)}var $e=()=>(location.protocol===`https:`?`wss://`:`ws://`)+location.host+`/graphql`;function et(e,t,n,r,i,a){return e.subscribe({query:qe(t),variables:n},{next:e=>e.errors?.length?i?.(new Ke(e.errors[0])):r(e.data),error:e=>i?.(e instanceof Error?e:Error(String(e?.reason||`connection closed`))),complete:()=>a?.()})}function tt(e,t,n,r,i){return Ze??=Ie({url:$e(),connectionParams:()=>({Authorization:`Bearer `+q.access}),lazy:!0}),et(Ze,e,t,n,r,i)}var nt=null;function rt(e,t,n,r){return nt??=Ie({url:$e(),lazy:!0,retryAttempts:20}),et(nt,e,t,n,r)}var it={zh:{shops:`商户`,orders:`我的订单`,login:`登录`,logout:`退出`,phone:`手机号`,sendCode:`获取验证码`,code:`验证码`,devCode:`开发模式验证码`,signIn:`登录`,more:`加载更多`,search:`按名称搜索`,allTypes:`全部`,vouchers:`优惠券`,notes:`探店笔记`,claim:`立即抢购`,startsIn:`距开始`,started:`进行中`,ended:`已结束`,left:`剩余`,pay:`去支付`,cancel:`取消订单`,code2:`核销码`,status:`状态`,score:`评分`,reviews:`条评价`,perPerson:`人均`,loginFirst:`请先登录`,SOLD_OUT:`已抢光`,ALREADY_CLAIMED:`你已经抢到过了`,RATE_LIMITED:`请求太频繁，请稍后再试`,NOT_STARTED:`还没开始`,ENDED:`已经结束`,UNAUTHENTICATED:`请先登录`,CONFLICT:`订单状态已变化`,PENDING:`排队中`,CREATED:`待支付`,PAID:`已支付`,USED:`已使用`,CANCELED:`已取消`,REFUNDED:`已退款`,FAILED:`失败`,none:`暂无`,yuan:`元`,board:`秒杀看板`,newSale:`发布秒杀`,shopId:`商户 ID`,title:`标题`,price:`秒杀价（元）`,worth:`原价（元）`,stock:`库存`,buckets:`分桶数`,startsInSeconds:`几秒后开始`,create:`发布`,s_remaining:`剩余`,s_accepted:`已抢`,s_pending:`排队中`,s_created:`待支付`,s_paid:`已支付`,s_used:`已核销`,s_canceled:`已取消`,s_rate:`每秒下单`,feed:`关注`,hot:`热门`,write:`写笔记`,follow:`关注`,unfollow:`取消关注`,comments:`评论`,comment:`评论`,send:`发送`,content:`正文`,rating:`评分`,photo:`照片`,publish:`发布`,signInDaily:`签到`,streak:`连续签到`,signInToday:`今日签到`,now:`现在`,nearMe:`附近`,around:`位置`,guessed:`未获得定位，按市中心`,openHours:`营业时间`,inbox:`消息`,unread:`未读`,markAllRead:`全部已读`,inboxEmpty:`还没有消息`,notifySettings:`通知设置`,notify_likes:`点赞`,notify_comments:`评论和回复`,notify_follows:`新粉丝`,notify_orders:`订单`,notify_followedNotes:`关注的人发布笔记`,justNow:`刚刚`,minAgo:`分钟前`,hAgo:`小时前`,days:`天`,hours:`小时`,favorites:`我的收藏`,favorite:`收藏`,unfavorite:`取消收藏`,noFavorites:`还没有收藏，点 ♡ 收藏商户和优惠券`,flashSale:`秒杀`,deals:`附近优惠`,dealsNear:`附近的优惠`,sortBy:`排序`,sort_DISTANCE:`距离最近`,sort_DISCOUNT:`优惠最多`,sort_SCORE:`评分最高`,sort_ENDING_SOON:`即将结束`,radius:`范围`,save:`省`,endsIn:`剩`,noDeals:`附近暂无优惠`,searchAll:`搜索商户、笔记、用户`,searchGo:`搜索`,searchFor:`搜索`,kind_SHOP:`商户`,kind_NOTE:`笔记`,kind_USER:`用户`,noResults:`没有找到结果`,BAD_USER_INPUT:`输入有误`,remindMe:`开售提醒`,reminderSet:`已设提醒`,remindersSet:`人设了提醒`,reminderOn:`开售前会提醒你`,reminderOff:`已取消提醒`,joinWaitlist:`加入候补`,waitlist:`我的候补`,inLine:`候补中，排第`,inLineShort:`排第`,offerHeld:`有一件退回的名额为你保留`,offerExpires:`保留剩余`,accept:`确认抢购`,decline:`放弃`,leave:`退出候补`,noWaitlist:`还没有候补：秒杀抢光时可以加入候补`,orderMade:`已为你下单`,seeOrders:`查看我的订单`,joined:`已加入候补`,notify_shopSales:`收藏商户的新秒杀`,ALREADY_STARTED:`秒杀已经开始，快去抢购`,NO_OFFER:`没有为你保留的名额`,OFFER_EXPIRED:`保留已过期，名额已让给下一位`,WAITLIST_FULL:`候补人数已满`,NOT_FOUND:`找不到了`,FORBIDDEN:`没有权限`,mySales:`我的秒杀`,begins:`开始`},en:{shops:`Shops`,orders:`My orders`,login:`Log in`,logout:`Log out`,phone:`Phone`,sendCode:`Send code`,code:`Code`,devCode:`Dev-mode code`,signIn:`Log in`,more:`Load more`,search:`Search by name`,allTypes:`All`,vouchers:`Vouchers`,notes:`Notes`,claim:`Claim now`,startsIn:`Starts in`,started:`On now`,ended:`Ended`,left:`left`,pay:`Pay`,cancel:`Cancel order`,code2:`Redemption code`,status:`Status`,score:`Score`,reviews:`reviews`,perPerson:`per person`,loginFirst:`Log in first`,SOLD_OUT:`Sold out`,ALREADY_CLAIMED:`You already have one`,RATE_LIMITED:`Too many requests, try again shortly`,NOT_STARTED:`Not started yet`,ENDED:`Already over`,UNAUTHENTICATED:`Log in first`,CONFLICT:`The order changed meanwhile`,PENDING:`Queued`,CREATED:`Awaiting payment`,PAID:`Paid`,USED:`Used`,CANCELED:`Canceled`,REFUNDED:`Refunded`,FAILED:`Failed`,none:`None yet`,yuan:`CNY`,board:`Sale board`,newSale:`New flash sale`,shopId:`Shop id`,title:`Title`,price:`Price (CNY)`,worth:`Worth (CNY)`,stock:`Stock`,buckets:`Buckets`,startsInSeconds:`Starts in (seconds)`,create:`Publish`,s_remaining:`Remaining`,s_accepted:`Claimed`,s_pending:`Queued`,s_created:`Awaiting payment`,s_paid:`Paid`,s_used:`Redeemed`,s_canceled:`Canceled`,s_rate:`Orders per second`,feed:`Following`,hot:`Hot`,write:`Write a note`,follow:`Follow`,unfollow:`Unfollow`,comments:`Comments`,comment:`Comment`,send:`Send`,content:`Text`,rating:`Rating`,photo:`Photo`,publish:`Publish`,signInDaily:`Check-in`,streak:`Days in a row`,signInToday:`Check in today`,now:`now`,nearMe:`Near me`,around:`Around`,guessed:`no location given: the city center`,openHours:`Open`,inbox:`Inbox`,unread:`Unread`,markAllRead:`Mark all read`,inboxEmpty:`Nothing here yet`,notifySettings:`Notifications`,notify_likes:`Likes`,notify_comments:`Comments and replies`,notify_follows:`New followers`,notify_orders:`Orders`,notify_followedNotes:`Notes of people I follow`,justNow:`just now`,minAgo:`min ago`,hAgo:`h ago`,days:`d`,hours:`h`,favorites:`My favourites`,favorite:`Add to favourites`,unfavorite:`Remove from favourites`,noFavorites:`No favourites yet: tap ♡ on a shop or a voucher`,flashSale:`flash sale`,deals:`Deals`,dealsNear:`Deals near me`,sortBy:`Sort by`,sort_DISTANCE:`Nearest`,sort_DISCOUNT:`Biggest discount`,sort_SCORE:`Best rated`,sort_ENDING_SOON:`Ending soon`,radius:`Within`,save:`save`,endsIn:`ends in`,noDeals:`No deals around here`,searchAll:`Search shops, notes, people`,searchGo:`Search`,searchFor:`Search`,kind_SHOP:`Shops`,kind_NOTE:`Notes`,kind_USER:`People`,noResults:`Nothing found`,BAD_USER_INPUT:`Check what you typed`,remindMe:`Remind me`,reminderSet:`Reminder set`,remindersSet:`reminders set`,reminderOn:`We will remind you before it starts`,reminderOff:`Reminder canceled`,joinWaitlist:`Join the waitlist`,waitlist:`My waitlist`,inLine:`In line, position`,inLineShort:`Position`,offerHeld:`A returned unit is held for you`,offerExpires:`held for`,accept:`Accept`,decline:`Decline`,leave:`Leave the line`,noWaitlist:`No places yet: when a sale sells out you can join its waitlist`,orderMade:`Your order`,seeOrders:`See my orders`,joined:`You are in the waitlist`,notify_shopSales:`New sales of my favourite shops`,ALREADY_STARTED:`The sale has begun: claim it now`,NO_OFFER:`No unit is held for you`,OFFER_EXPIRED:`The hold ran out: the unit went to the next in line`,WAITLIST_FULL:`The waitlist is full`,NOT_FOUND:`Not found`,FORBIDDEN:`Not allowed`,mySales:`My flash sales`,begins:`begins`}},Y=localStorage.getItem(`lang`)||((navigator.language||`zh`).startsWith(`en`)?`en`:`zh`);function at(e){Y=e,localStorage.setItem(`lang`,e),document.documentElement.lang=e===`zh`?`zh-CN`:`en`}var X=e=>it[Y][e]??e,ot=Symbol.for(`pv`),st=0;Array.isArray;function Z(t,n,r,i,a,o){n||={};var s,c,l=n;if(`ref`in l&&typeof t!=`function`)for(c in l={},n)c==`ref`?s=n[c]:l[c]=n[c];var u={type:t,props:l,key:r,ref:s,__k:null,__:null,__b:0,__e:null,__c:null,constructor:ot,__v:--st,__i:-1,__u:0};return(a||o)&&(u.__source=a,u.__self=o),e.vnode&&e.vnode(u),u}var Q=e=>(e/100).toFixed(e%100?2:0),ct=e=>e<1e3?Math.round(e)+` m`:(e/1e3).toFixed(1)+` km`,lt=e=>{let t=Math.max(0,Math.floor(e/1e3));return`${Math.floor(t/3600)}:${String(Math.floor(t/60)%60).padStart(2,`0`)}:${String(t%60).padStart(2,`0`)}`},ut=e=>{let t=Math.floor(Math.max(0,e)/36e5);return t>=24?`${Math.floor(t/24)}${X(`days`)} ${t%24}${X(`hours`)}`:lt(e)},dt=e=>{let t=Math.max(0,(Date.now()-Date.parse(e))/1e3);return t<60?X(`justNow`):t<3600?Math.floor(t/60)+` `+X(`minAgo`):t<86400?Math.floor(t/3600)+` `+X(`hAgo`):new Date(e).toLocaleDateString()};function ft(){let[e,t]=L(Date.now());return R(()=>{let e=setInterval(()=>t(Date.now()),1e3);return()=>clearInterval(e)},[]),e}function pt({img:e,fallback:t,...n}){let[r,i]=e.width&&e.height?[e.width,e.height]:t||[];return Z(`img`,{src:e.url,alt:``,width:r,height:i,...n})}var mt={lon:120.155,lat:30.274,guessed:!0};function ht(e){navigator.geolocation?navigator.geolocation.getCurrentPosition(t=>e({lon:t.coords.longitude,lat:t.coords.latitude}),()=>e(mt),{timeout:5e3}):e(mt)}var gt=G(`mutation FavoriteShop($id: ID!) { mark: favoriteShop(shopId: $id) { id favoritedByMe favoriteCount } }`),_t=G(`mutation UnfavoriteShop($id: ID!) { mark: unfavoriteShop(shopId: $id) { id favoritedByMe favoriteCount } }`),vt=G(`mutation FavoriteVoucher($id: ID!) { mark: favoriteVoucher(voucherId: $id) { id favoritedByMe } }`),yt=G(`mutation UnfavoriteVoucher($id: ID!) { mark: unfavoriteVoucher(voucherId: $id) { id favoritedByMe } }`);function bt({kind:e,id:t,on:n,count:r}){let[i,a]=L({on:n,count:r}),[o,s]=L(!1);return R(()=>a({on:n,count:r}),[t,n,r]),Z(`button`,{type:`button`,class:`heart`,"data-kind":e,"data-id":t,"aria-pressed":i.on,disabled:o,title:X(i.on?`unfavorite`:`favorite`),"aria-label":X(i.on?`unfavorite`:`favorite`),onClick:async n=>{if(n.preventDefault(),!q.access)location.hash=`#/login`;else{s(!0);try{let n=e===`shop`,r=await J(i.on?n?_t:yt:n?gt:vt,{id:t});a({on:r.mark.favoritedByMe,count:r.mark.favoriteCount??i.count})}catch{}finally{s(!1)}}},children:[Z(`span`,{"aria-hidden":`true`,children:i.on?`♥`:`♡`}),i.count!=null&&Z(`span`,{class:`heart-count`,children:i.count})]})}function xt({next:e,load:t,id:n}){let[r,i]=L(!1);return e?Z(`button`,{id:n,class:`more`,disabled:r,onClick:()=>{i(!0),t(e).finally(()=>i(!1))},children:X(`more`)}):null}function St({s:e}){return Z(`li`,{class:`shop-card`,"data-shop":e.id,children:[Z(`a`,{href:`#/shop/${e.id}`,class:`shop-link`,children:[e.images[0]&&Z(`img`,{src:e.images[0].url,alt:``,class:`shop-photo`,loading:`lazy`,width:`96`,height:`64`}),Z(`div`,{children:[Z(`b`,{children:e.name}),Z(`span`,{children:[e.distance!=null&&Z(`b`,{class:`distance`,children:[ct(e.distance),` · `]}),e.area,` · `,X(`perPerson`),` ¥`,Q(e.avgPrice),` · `,X(`score`),` `,(e.score/10).toFixed(1),` · `,e.comments,` `,X(`reviews`)]})]})]}),e.favoritedByMe!=null&&Z(bt,{kind:`shop`,id:e.id,on:e.favoritedByMe,count:e.favoriteCount})]})}var Ct=e=>e.code&&X(e.code)!==e.code?X(e.code):e.message,wt=({size:e=22})=>Z(`svg`,{viewBox:`0 0 24 24`,width:e,height:e,"aria-hidden":`true`,class:`icon`,children:Z(`path`,{fill:`currentColor`,d:`M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1z`})}),Tt=G(`mutation RemindMe($id: ID!) { mark: remindMe(voucherId: $id) { id remindedByMe reminderCount } }`),Et=G(`mutation CancelReminder($id: ID!) { mark: cancelReminder(voucherId: $id) { id remindedByMe reminderCount } }`);function Dt({id:e,on:t,onCount:n}){let[r,i]=L(t),[a,o]=L(!1),[s,c]=L(``);return R(()=>i(t),[e,t]),Z(y,{children:[Z(`button`,{type:`button`,class:`remind`,"data-id":e,"aria-pressed":r,disabled:a,title:X(r?`reminderOn`:`remindMe`),"aria-label":X(r?`reminderSet`:`remindMe`),onClick:async t=>{if(t.preventDefault(),!q.access)location.hash=`#/login`;else{o(!0),c(``);try{let t=await J(r?Et:Tt,{id:e});i(t.mark.remindedByMe),t.mark.reminderCount!=null&&n?.(t.mark.reminderCount)}catch(e){c(Ct(e))}finally{o(!1)}}},children:[Z(wt,{size:16}),Z(`span`,{children:X(r?`reminderSet`:`remindMe`)})]}),s&&Z(`span`,{role:`alert`,class:`error remind-error`,children:s})]})}var Ot=G(`query DealsNearby($lon: Float!, $lat: Float!, $r: Int, $sort: DealSort, $a: String) {
  dealsNearby(longitude: $lon, latitude: $lat, radius: $r, sort: $sort, first: 10, after: $a) {
    edges { node { distanceMeters discount beginsAt endsAt secondsLeft remainingStock live
      voucher { id title payValue actualValue kind favoritedByMe remindedByMe }
      shop { id name area score images { url } } } }
    pageInfo { hasNextPage endCursor } } }`),kt=[`DISTANCE`,`DISCOUNT`,`SCORE`,`ENDING_SOON`],At=[1e3,3e3,5e3,1e4,2e4];function jt(){let[e,t]=L(null),[n,r]=L(`DISTANCE`),[i,a]=L(5e3),[o,s]=L(null),[c,l]=L(``),[u,d]=L(null),[f,p]=L(``);R(()=>{ht(t)},[]);let m=Se(0),h=async t=>{p(``);try{let r=t?m.current:++m.current,a=await J(Ot,{lon:e.lon,lat:e.lat,r:i,sort:n,a:t||null});if(r!==m.current)return;let o=Date.now(),c=a.dealsNearby.edges.map(({node:e})=>{let t=e.secondsLeft==null?null:o+e.secondsLeft*1e3;return{...e,endsAtLocal:t,beginsAtLocal:t!=null&&e.beginsAt?t-(Date.parse(e.endsAt)-Date.parse(e.beginsAt)):null}});s(e=>t?[...e,...c]:c),l(`${n}:${i}`),d(a.dealsNearby.pageInfo.hasNextPage?a.dealsNearby.pageInfo.endCursor:null)}catch(e){p(X(e.code)===e.code?e.message:X(e.code))}};R(()=>{e&&h(null)},[e,n,i]);let g=ft();return Z(`section`,{children:[Z(`h1`,{children:X(`dealsNear`)}),e&&Z(`p`,{class:`meta`,children:[X(`around`),` `,e.lat.toFixed(4),`, `,e.lon.toFixed(4),e.guessed?` (`+X(`guessed`)+`)`:``]}),Z(`div`,{class:`row`,children:[Z(`div`,{class:`types sorts`,role:`tablist`,"aria-label":X(`sortBy`),children:kt.map(e=>Z(`button`,{role:`tab`,id:`sort-`+e,"aria-selected":n===e,onClick:()=>r(e),children:X(`sort_`+e)}))}),Z(`label`,{class:`inline`,children:[X(`radius`),` `,Z(`select`,{id:`deal-radius`,value:i,onChange:e=>a(Number(e.currentTarget.value)),children:At.map(e=>Z(`option`,{value:e,children:ct(e)}))})]})]}),f&&Z(`p`,{role:`alert`,class:`error`,children:f}),o&&o.length===0&&Z(`p`,{class:`meta`,children:X(`noDeals`)}),Z(`ul`,{class:`deals`,"data-shown":c,children:o?.map(e=>{let t=e.voucher,n=e.beginsAtLocal!=null&&e.beginsAtLocal>g;return Z(`li`,{class:`deal`,"data-voucher":t.id,"data-distance":e.distanceMeters,"data-discount":e.discount,"data-score":e.shop.score,"data-seconds-left":e.secondsLeft??``,children:[Z(`a`,{href:`#/shop/${e.shop.id}`,class:`shop-link`,children:[e.shop.images[0]&&Z(`img`,{src:e.shop.images[0].url,alt:``,class:`shop-photo`,loading:`lazy`,width:`96`,height:`64`}),Z(`div`,{children:[Z(`b`,{children:t.title}),Z(`span`,{class:`price`,children:[Z(`b`,{children:[`¥`,Q(t.payValue)]}),` `,Z(`s`,{children:[`¥`,Q(t.actualValue)]}),` `,Z(`em`,{class:`discount`,children:[X(`save`),` ¥`,Q(e.discount)]})]}),Z(`span`,{children:[e.shop.name,` · `,X(`score`),` `,(e.shop.score/10).toFixed(1)]}),Z(`span`,{children:[Z(`b`,{class:`distance`,children:ct(e.distanceMeters)}),t.kind===`FLASH_SALE`&&(n?Z(y,{children:[` · `,Z(`span`,{class:`time-left`,children:[X(`startsIn`),` `,ut(e.beginsAtLocal-g)]})]}):e.endsAtLocal!=null&&Z(y,{children:[` · `,Z(`span`,{class:`time-left`,children:[X(`endsIn`),` `,ut(e.endsAtLocal-g)]})]})),e.remainingStock!=null&&Z(y,{children:[` · `,Z(`span`,{class:`remaining`,children:[X(`left`),` `,e.remainingStock]})]})]})]})]}),Z(`span`,{class:`deal-actions`,children:[Z(bt,{kind:`voucher`,id:t.id,on:t.favoritedByMe}),t.kind===`FLASH_SALE`&&n&&Z(Dt,{id:t.id,on:t.remindedByMe})]})]})})}),Z(xt,{next:u,load:h,id:`more-deals`})]})}var Mt=G(`query MyFavorites($a: String) { myFavorites(first: 20, after: $a) {
  edges { node { id createdAt
    shop { id name area avgPrice score comments images { url } favoritedByMe favoriteCount }
    voucher { id title payValue actualValue kind endTime favoritedByMe shop { id name } } } }
  pageInfo { hasNextPage endCursor } } }`);function Nt(){let[e,t]=L(null),[n,r]=L(null),i=async e=>{let n=await J(Mt,{a:e||null}),i=n.myFavorites.edges.map(e=>e.node).filter(e=>e.shop||e.voucher);t(t=>e?[...t,...i]:i),r(n.myFavorites.pageInfo.hasNextPage?n.myFavorites.pageInfo.endCursor:null)};return R(()=>{q.access&&i(null)},[]),q.access?Z(`section`,{children:[Z(`h1`,{children:X(`favorites`)}),e&&e.length===0&&Z(`p`,{class:`meta`,children:X(`noFavorites`)}),Z(`ul`,{class:`favorites shops`,children:e?.map(e=>e.shop?Z(St,{s:e.shop}):Z(`li`,{class:`voucher-card`,"data-voucher":e.voucher.id,children:[Z(`a`,{href:`#/shop/${e.voucher.shop.id}`,class:`shop-link`,children:[Z(`b`,{children:e.voucher.title}),Z(`span`,{children:[e.voucher.shop.name,` · ¥`,Q(e.voucher.payValue),` `,Z(`s`,{children:[`¥`,Q(e.voucher.actualValue)]}),e.voucher.kind===`FLASH_SALE`&&Z(y,{children:[` · `,X(`flashSale`)]})]})]}),Z(bt,{kind:`voucher`,id:e.voucher.id,on:e.voucher.favoritedByMe})]}))}),Z(xt,{next:n,load:i})]}):Z(`p`,{children:Z(`a`,{href:`#/login`,children:X(`loginFirst`)})})}var Pt=G(`query UnreadCount { unreadNotificationCount }`),Ft=G(`subscription NotificationAdded { notificationAdded { id } }`);G(`fragment NotificationItem on Notification { id kind createdAt updatedAt read actorCount text
  actor { id nickName icon } blog { id title } order { id } voucher { id title beginTime shop { id name } } }`);var It=G(`query Notifications($a: String, $unread: Boolean) {
  notifications(first: 20, after: $a, unreadOnly: $unread) { edges { node { ...NotificationItem } } pageInfo { hasNextPage endCursor } } }`),Lt=G(`mutation MarkNotificationsRead($upTo: ID) { markNotificationsRead(upTo: $upTo) }`),Rt=G(`query NotificationSettings { notificationSettings { likes comments follows orders followedNotes shopSales } }`),zt=G(`mutation UpdateNotificationSettings($in: NotificationSettingsInput!) {
  updateNotificationSettings(input: $in) { likes comments follows orders followedNotes shopSales } }`),Bt=()=>dispatchEvent(new Event(`dealspot:unread`));function Vt(e){let t=()=>{},n=!1,r=0,i=0,a=()=>{n||(Date.now()-i>3e4&&(r=0),setTimeout(()=>{n||(e(),o())},Math.min(3e4,500*2**r++)))},o=()=>{i=Date.now(),t=tt(Ft,{},()=>{r=0,e()},a,a)};return o(),()=>{n=!0,t()}}function Ht({user:e}){let[t,n]=L(0);return R(()=>{let e=!1,t=()=>J(Pt).then(t=>{e||n(t.unreadNotificationCount)}).catch(()=>{});t();let r=Vt(t);return addEventListener(`dealspot:unread`,t),()=>{e=!0,r(),removeEventListener(`dealspot:unread`,t)}},[e.id]),Z(`a`,{href:`#/inbox`,id:`bell`,class:`bell`,"data-unread":t,"aria-label":`${X(`inbox`)} (${t} ${X(`unread`)})`,children:[Z(wt,{}),t>0&&Z(`span`,{class:`badge`,id:`unread-badge`,children:t>99?`99+`:t})]})}var Ut={BLOG_LIKED:`♥`,BLOG_COMMENTED:`✉`,COMMENT_REPLIED:`↩`,FOLLOWED:`☺`,ORDER_PAID:`✓`,ORDER_REFUNDED:`↺`,ORDER_EXPIRED:`✕`,ORDER_EXPIRY_WARNING:`!`,SHOP_NEW_SALE:`¥`,SALE_REMINDER:`◷`,WAITLIST_OFFER:`⚑`},Wt=e=>new Date(e).toLocaleString(`zh-CN`,{month:`numeric`,day:`numeric`,hour:`2-digit`,minute:`2-digit`});function Gt(e){if(Y!==`zh`)return e.text;let t=(e.actor?.nickName||`有人`)+(e.actorCount>1?` 等 ${e.actorCount} 人`:``),n=e.blog?`《${e.blog.title}》`:``,r=e.voucher?`「${e.voucher.title}」`:``;switch(e.kind){case`BLOG_LIKED`:return`${t}赞了你的笔记${n}`;case`BLOG_COMMENTED`:return`${t}评论了你的笔记${n}`;case`COMMENT_REPLIED`:return`${t}回复了你在${n||`笔记`}下的评论`;case`FOLLOWED`:return`${t}关注了你`;case`ORDER_PAID`:return`你的订单 ${e.order?.id??``} 已支付，到店出示核销码即可使用`;case`ORDER_REFUNDED`:return`你的订单 ${e.order?.id??``} 已退款`;case`ORDER_EXPIRED`:return`你的订单 ${e.order?.id??``} 超时未支付，已取消`;case`ORDER_EXPIRY_WARNING`:return`你的订单 ${e.order?.id??``} 即将超时，请尽快支付`;case`SHOP_NEW_SALE`:return`${e.voucher?.shop?.name||`你收藏的商户`}上新了秒杀${r}`;case`SALE_REMINDER`:return e.voucher?`你预约的秒杀${r}将于 ${Wt(e.voucher.beginTime)} 开始`:`你预约的秒杀即将开始`;case`WAITLIST_OFFER`:return`${r||`你候补的秒杀`}有一件退回的名额为你保留，请尽快到候补页面确认，过期将让给下一位`;default:return e.text}}var Kt=e=>e.blog?`#/note/${e.blog.id}`:e.kind===`WAITLIST_OFFER`?`#/waitlist`:e.voucher?.shop?`#/shop/${e.voucher.shop.id}`:e.order?`#/orders`:null,qt=[`likes`,`comments`,`follows`,`orders`,`followedNotes`,`shopSales`];function Jt(){let[e,t]=L(null),[n,r]=L(``),[i,a]=L(0);R(()=>{J(Rt).then(e=>t(e.notificationSettings)).catch(e=>r(e.message))},[]);let o=async(e,n)=>{r(``);try{t((await J(zt,{in:{[e]:n}})).updateNotificationSettings),a(e=>e+1)}catch(e){r(e.message)}};return Z(`fieldset`,{class:`settings`,id:`inbox-settings`,"data-saved":i,children:[Z(`legend`,{children:X(`notifySettings`)}),e&&qt.map(t=>Z(`label`,{class:`switch`,children:[Z(`input`,{type:`checkbox`,id:`notify-`+t,checked:e[t],onChange:e=>o(t,e.currentTarget.checked)}),` `,X(`notify_`+t)]})),n&&Z(`p`,{role:`alert`,class:`error`,children:n})]})}function Yt(){let[e,t]=L(!1),[n,r]=L(null),[i,a]=L(null),[o,s]=L(!1),[c,l]=L(``),u=Se(0),d=async t=>{let n=t?u.current:++u.current,i=await J(It,{a:t||null,unread:e});if(n!==u.current)return;let o=i.notifications.edges.map(e=>e.node);r(e=>t?[...e,...o]:o),a(i.notifications.pageInfo.hasNextPage?i.notifications.pageInfo.endCursor:null)};if(R(()=>{if(q.access)return d(null).catch(e=>l(e.message)),Vt(()=>d(null).catch(()=>{}))},[e]),!q.access)return Z(`p`,{children:Z(`a`,{href:`#/login`,children:X(`loginFirst`)})});let f=n?.some(e=>!e.read);return Z(`section`,{children:[Z(`div`,{class:`title-row`,children:[Z(`h1`,{children:X(`inbox`)}),Z(`button`,{id:`settings-toggle`,"aria-expanded":o,onClick:()=>s(!o),children:[`⚙ `,X(`notifySettings`)]})]}),o&&Z(Jt,{}),Z(`div`,{class:`types`,role:`tablist`,children:[Z(`button`,{role:`tab`,"aria-selected":!e,onClick:()=>t(!1),children:X(`allTypes`)}),Z(`button`,{role:`tab`,"aria-selected":e,id:`unread-only`,onClick:()=>t(!0),children:X(`unread`)}),Z(`button`,{id:`mark-read`,disabled:!f,onClick:async()=>{l(``);try{await J(Lt,{upTo:n[0]?.id??null}),await d(null),Bt()}catch(e){l(e.message)}},children:X(`markAllRead`)})]}),c&&Z(`p`,{role:`alert`,class:`error`,children:c}),n&&n.length===0&&Z(`p`,{class:`meta`,children:X(`inboxEmpty`)}),Z(`ul`,{class:`notifications`,children:n?.map(e=>{let t=Kt(e),n=Z(y,{children:[Z(`span`,{class:`kind`,"aria-hidden":`true`,children:Ut[e.kind]||`•`}),e.actor?.icon&&Z(`img`,{src:e.actor.icon,alt:``,class:`avatar`,width:`24`,height:`24`}),Z(`span`,{class:`text`,children:[Gt(e),Z(`small`,{class:`meta`,children:[` · `,dt(e.updatedAt)]})]})]});return Z(`li`,{class:`notification`+(e.read?``:` unread`),"data-id":e.id,"data-kind":e.kind,children:t?Z(`a`,{href:t,children:n}):Z(`div`,{children:n})})})}),Z(xt,{next:i,load:d})]})}var Xt=G(`query Search($q: String!, $kind: SearchKind!, $a: String) {
  search(query: $q, kind: $kind, first: 10, after: $a) {
    edges { node { score snippet
      shop { id name area avgPrice score images { url } }
      note { id title likedCount author { nickName } shop { name } }
      user { id nickName icon } } }
    pageInfo { hasNextPage endCursor } } }`),Zt=[`SHOP`,`NOTE`,`USER`],Qt=(e,t)=>`#/search/${e}/${encodeURIComponent(t)}`,$t={amp:`&`,lt:`<`,gt:`>`,quot:`"`,apos:`'`},en=e=>e.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi,(e,t)=>t[0]===`#`?String.fromCodePoint(t[1]===`x`||t[1]===`X`?parseInt(t.slice(2),16):Number(t.slice(1))):$t[t.toLowerCase()]??e);function tn({html:e}){return Z(`span`,{class:`snippet`,children:e.split(/<mark>([\s\S]*?)<\/mark>/).map((e,t)=>t%2?Z(`mark`,{children:en(e)}):en(e))})}function nn({name:e,snippet:t,icon:n}){let r=en(t.replace(/<\/?mark>/g,``))===e;return Z(y,{children:[Z(`b`,{class:`result-title`,children:[n&&Z(`img`,{src:n,alt:``,class:`avatar`,width:`24`,height:`24`}),r?Z(tn,{html:t}):e]}),!r&&Z(tn,{html:t})]})}function rn({kind:e,query:t}){let[n,r]=L(t||``);return R(()=>r(t||``),[t]),Z(`form`,{class:`search-box`,role:`search`,onSubmit:t=>{t.preventDefault(),n.trim()&&(location.hash=Qt(e||`SHOP`,n.trim()))},children:[Z(`input`,{type:`search`,id:`search-box`,name:`q`,value:n,maxLength:100,placeholder:X(`searchAll`),"aria-label":X(`searchAll`),onInput:e=>r(e.currentTarget.value)}),Z(`button`,{type:`submit`,id:`search-go`,"aria-label":X(`searchGo`),children:Z(`svg`,{viewBox:`0 0 24 24`,width:`18`,height:`18`,"aria-hidden":`true`,class:`icon`,children:[Z(`circle`,{cx:`10.5`,cy:`10.5`,r:`6.5`,fill:`none`,stroke:`currentColor`,"stroke-width":`2.4`}),Z(`path`,{d:`M15.5 15.5L21 21`,stroke:`currentColor`,"stroke-width":`2.4`,"stroke-linecap":`round`})]})})]})}function an({kind:e,query:t}){let[n,r]=L(null),[i,a]=L(``),[o,s]=L(null),[c,l]=L(``),u=Se(0),d=async n=>{l(``);try{let i=n?u.current:++u.current,o=await J(Xt,{q:t,kind:e,a:n||null});if(i!==u.current)return;let c=o.search.edges.map(e=>e.node);r(e=>n?[...e,...c]:c),a(`${e}:${t}`),s(o.search.pageInfo.hasNextPage?o.search.pageInfo.endCursor:null)}catch(n){r([]),s(null),a(`${e}:${t}`),l(X(n.code)===n.code?n.message:X(n.code))}};return R(()=>{r(null),t&&d(null)},[e,t]),Z(`section`,{children:[Z(`h1`,{children:[X(`searchFor`),` “`,t,`”`]}),Z(`div`,{class:`types`,role:`tablist`,children:Zt.map(n=>Z(`a`,{role:`tab`,class:`button`,id:`search-`+n,"aria-selected":n===e,href:Qt(n,t),children:X(`kind_`+n)}))}),c&&Z(`p`,{role:`alert`,class:`error`,children:c}),n&&n.length===0&&!c&&Z(`p`,{class:`meta`,id:`no-results`,children:X(`noResults`)}),Z(`ul`,{class:`results`,"data-shown":i,children:n?.map(t=>Z(`li`,{class:`result`,"data-kind":e,children:[t.shop&&Z(`a`,{href:`#/shop/${t.shop.id}`,class:`shop-link`,children:[Z(nn,{name:t.shop.name,snippet:t.snippet}),Z(`span`,{children:[t.shop.area,` · `,X(`perPerson`),` ¥`,Q(t.shop.avgPrice),` · `,X(`score`),` `,(t.shop.score/10).toFixed(1)]})]}),t.note&&Z(`a`,{href:`#/note/${t.note.id}`,class:`shop-link`,children:[Z(nn,{name:t.note.title,snippet:t.snippet}),Z(`span`,{children:[t.note.author.nickName,t.note.shop?` · `+t.note.shop.name:``,` · ♥`,t.note.likedCount]})]}),t.user&&Z(`div`,{class:`shop-link person`,children:Z(nn,{name:t.user.nickName,snippet:t.snippet,icon:t.user.icon})})]}))}),Z(xt,{next:o,load:d,id:`more-results`})]})}var on=G(`query MyWaitlist { myWaitlist { id voucherId status position joinedAt offer { offeredAt expiresAt }
  voucher { id title payValue actualValue shop { id name } } } }`),sn=G(`mutation AcceptOffer($v: ID!) { acceptOffer(voucherId: $v) { id status } }`),cn=G(`mutation DeclineOffer($v: ID!) { declineOffer(voucherId: $v) }`),ln=G(`mutation LeaveWaitlist($v: ID!) { leaveWaitlist(voucherId: $v) }`),un=1e4;function dn(){let[e,t]=L(null),[n,r]=L(``),[i,a]=L(null),[o,s]=L(``),c=()=>J(on).then(e=>t(e.myWaitlist));R(()=>{if(!q.access)return;c().catch(e=>r(Ct(e)));let e=Vt(()=>c().catch(()=>{})),t=setInterval(()=>c().catch(()=>{}),un);return()=>{e(),clearInterval(t)}},[]);let l=ft();if(!q.access)return Z(`p`,{children:Z(`a`,{href:`#/login`,children:X(`loginFirst`)})});let u=async(e,t)=>{r(``),s(e.voucherId);try{let n=await J(t,{v:e.voucherId});n.acceptOffer&&a({...n.acceptOffer,title:e.voucher.title})}catch(e){r(Ct(e))}await c().catch(()=>{}),s(``)};return Z(`section`,{children:[Z(`h1`,{children:X(`waitlist`)}),i&&Z(`p`,{class:`hint order-made`,"aria-live":`polite`,"data-order":i.id,"data-status":i.status,children:[X(`orderMade`),` `,i.id,` · `,i.title,` · `,Z(`b`,{children:X(i.status)}),` · `,Z(`a`,{href:`#/orders`,id:`see-orders`,children:X(`seeOrders`)})]}),n&&Z(`p`,{role:`alert`,class:`error`,children:n}),e&&e.length===0&&!i&&Z(`p`,{class:`meta`,children:X(`noWaitlist`)}),Z(`ul`,{class:`waitlist`,children:e?.map(e=>{let t=e.voucher,n=e.offer?Date.parse(e.offer.expiresAt)-l:0;return Z(`li`,{class:`place`+(e.offer?` offered`:``),"data-voucher":e.voucherId,"data-status":e.status,children:[Z(`a`,{href:`#/shop/${t.shop.id}`,class:`shop-link`,children:[Z(`b`,{children:t.title}),Z(`span`,{children:[t.shop.name,` · ¥`,Q(t.payValue),` `,Z(`s`,{children:[`¥`,Q(t.actualValue)]})]})]}),e.offer?Z(`div`,{class:`offer`,"aria-live":`polite`,children:[Z(`p`,{children:[Z(`b`,{children:X(`offerHeld`)}),` · `,X(`offerExpires`),` `,Z(`b`,{class:`offer-countdown`,"data-ms":Math.max(0,n),children:lt(n)})]}),Z(`div`,{class:`actions`,children:[Z(`button`,{class:`accept claim`,disabled:o===e.voucherId||n<=0,onClick:()=>u(e,sn),children:X(`accept`)}),Z(`button`,{class:`decline`,disabled:o===e.voucherId,onClick:()=>u(e,cn),children:X(`decline`)})]})]}):Z(`div`,{class:`in-line`,children:[Z(`span`,{class:`position-label`,children:[X(`inLine`),` `,Z(`b`,{class:`position`,children:e.position})]}),Z(`button`,{class:`leave`,disabled:o===e.voucherId,onClick:()=>u(e,ln),children:X(`leave`)})]})]})})})]})}function fn(){let[e,t]=L(location.hash.slice(2));return R(()=>{let e=()=>t(location.hash.slice(2));return addEventListener(`hashchange`,e),()=>removeEventListener(`hashchange`,e)},[]),e.split(`/`).map(e=>{try{return decodeURIComponent(e)}catch{return e}})}function pn(){let[,e]=L(0),[t,n,r]=fn(),i=q.user;return Z(y,{children:[Z(`header`,{children:[Z(`a`,{href:`#/`,class:`brand`,children:`Dealspot`}),i&&Z(Ht,{user:i}),Z(rn,{kind:t===`search`?n:null,query:t===`search`?r:``}),Z(`nav`,{children:[Z(`a`,{href:`#/`,children:X(`shops`)}),Z(`a`,{href:`#/deals`,children:X(`deals`)}),Z(`a`,{href:`#/notes`,children:X(`notes`)}),i&&Z(`a`,{href:`#/favorites`,children:X(`favorites`)}),i&&Z(`a`,{href:`#/signin`,children:X(`signInDaily`)}),i&&Z(`a`,{href:`#/orders`,children:X(`orders`)}),i&&Z(`a`,{href:`#/waitlist`,id:`waitlist-link`,children:X(`waitlist`)}),i&&i.role!==`USER`&&Z(`a`,{href:`#/board`,children:X(`board`)}),i?Z(`button`,{onClick:()=>{J(G(`mutation Logout{ logout }`)).catch(()=>{}),q.clear(),location.hash=`#/`,e(e=>e+1)},children:X(`logout`)}):Z(`a`,{href:`#/login`,children:X(`login`)}),Z(`button`,{"aria-label":`language`,onClick:()=>{at(Y===`zh`?`en`:`zh`),e(e=>e+1)},children:Y===`zh`?`EN`:`中文`})]})]}),Z(`main`,{children:t===`login`?Z(mn,{onDone:()=>{location.hash=`#/`,e(e=>e+1)}}):t===`shop`?Z(gn,{id:n}):t===`orders`?Z(vn,{}):t===`board`?Z(yn,{voucherId:n}):t===`notes`?Z(jn,{}):t===`note`?Z(Mn,{id:n}):t===`write`?Z(Pn,{}):t===`signin`?Z(Fn,{}):t===`deals`?Z(jt,{}):t===`favorites`?Z(Nt,{}):t===`inbox`?Z(Yt,{}):t===`waitlist`?Z(dn,{}):t===`search`?Z(an,{kind:n||`SHOP`,query:r||``}):Z(hn,{})})]})}function mn({onDone:e}){let[t,n]=L(``),[r,i]=L(``),[a,o]=L(``),[s,c]=L(``);return Z(`form`,{class:`card`,onSubmit:async n=>{n.preventDefault(),c(``);try{let n=await J(G(`mutation Login($p: String!, $c: String!) { login(phone: $p, code: $c) { accessToken refreshToken user { id nickName role } } }`),{p:t,c:r});q.save(n.login),e()}catch(e){c(e.message)}},children:[Z(`h1`,{children:X(`login`)}),Z(`label`,{children:[X(`phone`),` `,Z(`input`,{id:`phone`,inputMode:`tel`,autoComplete:`tel`,value:t,onInput:e=>n(e.currentTarget.value)})]}),Z(`button`,{type:`button`,id:`send-code`,onClick:async e=>{e.preventDefault(),c(``);try{let e=await J(G(`mutation SendLoginCode($p: String!) { sendLoginCode(phone: $p) { sent devCode } }`),{p:t});e.sendLoginCode.devCode&&(o(e.sendLoginCode.devCode),i(e.sendLoginCode.devCode))}catch(e){c(e.message)}},children:X(`sendCode`)}),a&&Z(`p`,{class:`hint`,children:[X(`devCode`),`: `,Z(`b`,{id:`dev-code`,children:a})]}),Z(`label`,{children:[X(`code`),` `,Z(`input`,{id:`code`,inputMode:`numeric`,value:r,onInput:e=>i(e.currentTarget.value)})]}),Z(`button`,{type:`submit`,id:`login`,children:X(`signIn`)}),s&&Z(`p`,{role:`alert`,class:`error`,children:s})]})}G(`fragment ShopItem on Shop { id name area avgPrice score comments images { url } }`);function hn(){let[e,t]=L([]),[n,r]=L(``),[i,a]=L(``),[o,s]=L([]),[c,l]=L(null),[u,d]=L(null);R(()=>{J(G(`query ShopTypes { shopTypes { id name icon } }`)).then(e=>t(e.shopTypes))},[]);let f=!!q.access,p=async t=>{let r;r=u?(await J(G(f?`query NearbyMine($t: ID!, $lon: Float!, $lat: Float!, $a: String) {
        nearbyShops(typeId: $t, longitude: $lon, latitude: $lat, first: 10, after: $a) {
          edges { distanceMeters node { ...ShopItem favoritedByMe favoriteCount } } pageInfo { hasNextPage endCursor } } }`:`query Nearby($t: ID!, $lon: Float!, $lat: Float!, $a: String) {
        nearbyShops(typeId: $t, longitude: $lon, latitude: $lat, first: 10, after: $a) {
          edges { distanceMeters node { ...ShopItem } } pageInfo { hasNextPage endCursor } } }`),{t:n||e[0]?.id||`1`,lon:u.lon,lat:u.lat,a:t})).nearbyShops:(await J(G(f?`query ShopsMine($t: ID, $n: String, $a: String) { shops(typeId: $t, name: $n, first: 10, after: $a) {
        edges { node { ...ShopItem favoritedByMe favoriteCount } } pageInfo { hasNextPage endCursor } } }`:`query Shops($t: ID, $n: String, $a: String) { shops(typeId: $t, name: $n, first: 10, after: $a) {
        edges { node { ...ShopItem } } pageInfo { hasNextPage endCursor } } }`),{t:n||null,n:i||null,a:t})).shops;let a=r.edges.map(e=>({...e.node,distance:e.distanceMeters}));s(e=>t?[...e,...a]:a),l(r.pageInfo.hasNextPage?r.pageInfo.endCursor:null)};R(()=>{p(null)},[n,i,u,e.length>0]);let m=()=>ht(d);return Z(`section`,{children:[Z(`div`,{class:`types`,role:`tablist`,children:[Z(`button`,{role:`tab`,"aria-selected":n===``,onClick:()=>r(``),children:X(`allTypes`)}),e.map(e=>Z(`button`,{role:`tab`,"aria-selected":n===e.id,onClick:()=>r(e.id),children:[e.icon&&Z(`img`,{src:e.icon,alt:``,class:`type-icon`}),e.name]}))]}),Z(`div`,{class:`row`,children:[Z(`label`,{class:`search`,children:[X(`search`),` `,Z(`input`,{type:`search`,value:i,disabled:!!u,onChange:e=>a(e.currentTarget.value)})]}),Z(`button`,{id:`near-me`,"aria-pressed":!!u,onClick:()=>u?d(null):m(),children:X(`nearMe`)})]}),u&&Z(`p`,{class:`meta`,children:[X(`around`),` `,u.lat.toFixed(4),`, `,u.lon.toFixed(4),u.guessed?` (`+X(`guessed`)+`)`:``]}),Z(`ul`,{class:`shops`,children:o.map(e=>Z(St,{s:e}))}),c&&Z(`button`,{onClick:()=>p(c),children:X(`more`)})]})}function gn({id:e}){let[t,n]=L(null);return R(()=>{J(G(`query Shop($id: ID!) { shop(id: $id) { id name address avgPrice score comments images { url width height } openHours type { name }
      favoritedByMe favoriteCount
      vouchers { id title payValue actualValue kind stock beginTime endTime favoritedByMe remindedByMe reminderCount }
      blogs(first: 5) { edges { node { id title rating likedCount author { nickName } } } } } }`),{id:e}).then(e=>n(e.shop))},[e]),t?Z(`section`,{children:[Z(`div`,{class:`title-row`,children:[Z(`h1`,{children:t.name}),Z(bt,{kind:`shop`,id:t.id,on:t.favoritedByMe,count:t.favoriteCount})]}),t.images.length>0&&Z(`div`,{class:`photos`,children:t.images.map(e=>Z(pt,{img:e,class:`shop-photo`,fallback:[240,160]}))}),Z(`p`,{children:[t.type?.name,` · `,t.address,` · `,X(`perPerson`),` ¥`,Q(t.avgPrice),` · `,X(`score`),` `,(t.score/10).toFixed(1)]}),t.openHours&&Z(`p`,{class:`meta`,children:[X(`openHours`),` `,t.openHours]}),Z(`h2`,{children:X(`vouchers`)}),Z(`ul`,{class:`vouchers`,children:t.vouchers.map(e=>Z(_n,{v:e}))}),Z(`h2`,{children:X(`notes`)}),Z(`ul`,{children:t.blogs.edges.map(({node:e})=>Z(`li`,{children:[e.title,` — `,e.author.nickName,e.rating?` `+`★`.repeat(e.rating):``,` ♥`,e.likedCount]}))})]}):Z(`p`,{children:`…`})}function _n({v:e}){let t=ft(),[n,r]=L(null),[i,a]=L(``),[o,s]=L(!1),[c,l]=L(null),[u,d]=L(e.reminderCount),f=e.beginTime?Date.parse(e.beginTime):0,p=e.endTime?Date.parse(e.endTime):1/0,m=e.kind===`FLASH_SALE`,[h,g]=L(null);R(()=>m?rt(G(`subscription SaleProgress($v: ID!) { saleProgress(voucherId: $v) { remaining soldOut phase } }`),{v:e.id},e=>g(e.saleProgress)):void 0,[e.id]);let _=e=>tt(G(`subscription OrderStatus($o: ID!) { orderStatus(orderId: $o) { orderId status reason } }`),{o:e},async t=>{let n=t.orderStatus,i=null;n.status===`PAID`&&(i=(await J(G(`query Order($o: ID!) { order(id: $o) { redemptionCode } }`),{o:e})).order?.redemptionCode),r(e=>({...e,status:n.status,code:i??e?.code}))},e=>a(e.message)),v=async()=>{if(a(``),!q.access)a(X(`loginFirst`));else try{let t=await J(G(`mutation ClaimVoucher($v: ID!) { claimVoucher(voucherId: $v) { orderId status } }`),{v:e.id});r({id:t.claimVoucher.orderId,status:t.claimVoucher.status}),_(t.claimVoucher.orderId)}catch(e){a(Ct(e)),s(e.code===`SOLD_OUT`)}},b=async()=>{a(``);try{let t=await J(G(`mutation JoinWaitlist($v: ID!) { joinWaitlist(voucherId: $v) { id status position } }`),{v:e.id});l(t.joinWaitlist)}catch(e){a(Ct(e))}},x=async e=>{try{await J(e,{o:n.id})}catch(e){a(X(e.code)===e.code?e.message:X(e.code))}};return Z(`li`,{class:`voucher`,children:[Z(`b`,{children:e.title}),` ¥`,Q(e.payValue),` `,Z(`s`,{children:[`¥`,Q(e.actualValue)]}),m&&Z(`span`,{class:`stock`,"data-live":h?`true`:`false`,"data-remaining":h?h.remaining:e.stock,children:[` · `,h?.soldOut?X(`SOLD_OUT`):Z(y,{children:[X(`left`),` `,h?h.remaining:e.stock]})]}),m&&(t<f?Z(`span`,{class:`countdown`,children:[` · `,X(`startsIn`),` `,lt(f-t)]}):Z(`span`,{children:[` · `,X(t>p?`ended`:`started`)]})),m&&u!=null&&Z(`span`,{class:`reminder-count`,"data-count":u,children:[` · `,u,` `,X(`remindersSet`)]}),m&&!n&&!c&&Z(`button`,{class:`claim`,disabled:t<f||t>p,onClick:v,children:X(`claim`)}),Z(`span`,{class:`voucher-actions`,children:[Z(bt,{kind:`voucher`,id:e.id,on:e.favoritedByMe}),m&&t<f&&Z(Dt,{id:e.id,on:e.remindedByMe,onCount:d})]}),n&&Z(`div`,{class:`order`,"aria-live":`polite`,children:[X(`status`),`: `,Z(`b`,{class:`order-status`,"data-status":n.status,children:X(n.status)}),n.status===`CREATED`&&Z(y,{children:[Z(`button`,{class:`pay`,onClick:()=>x(G(`mutation PayOrder($o: ID!) { payOrder(orderId: $o) { id status } }`)),children:X(`pay`)}),Z(`button`,{onClick:()=>x(G(`mutation CancelOrder($o: ID!) { cancelOrder(orderId: $o) { status } }`)),children:X(`cancel`)})]}),n.code&&Z(`p`,{children:[X(`code2`),`: `,Z(`b`,{class:`redemption-code`,children:n.code})]})]}),i&&Z(`p`,{role:`alert`,class:`error claim-answer`,children:i}),m&&!n&&(c?Z(`p`,{class:`waitlist-place`,"aria-live":`polite`,children:[X(`joined`),` · `,c.position==null?null:Z(y,{children:[X(`inLineShort`),` `,Z(`b`,{class:`position`,children:c.position}),` · `]}),Z(`a`,{href:`#/waitlist`,children:X(`waitlist`)})]}):o&&t<=p&&Z(`button`,{class:`join-waitlist`,onClick:b,children:X(`joinWaitlist`)}))]})}function vn(){let[e,t]=L(``),[n,r]=L([]);return R(()=>{J(G(`query MyOrders($s: [OrderStatus!]) { myOrders(status: $s, first: 20) { edges { node { id status amount voucher { title } shop { name } redemptionCode } } } }`),{s:e?[e]:null}).then(e=>r(e.myOrders.edges.map(e=>e.node)))},[e]),Z(`section`,{children:[Z(`h1`,{children:X(`orders`)}),Z(`div`,{class:`types`,children:[``,`PENDING`,`CREATED`,`PAID`,`USED`,`CANCELED`].map(n=>Z(`button`,{"aria-selected":e===n,onClick:()=>t(n),children:X(n||`allTypes`)}))}),n.length===0?Z(`p`,{children:X(`none`)}):Z(`ul`,{children:n.map(e=>Z(`li`,{children:[e.voucher.title,` · `,e.shop.name,` · ¥`,Q(e.amount),` · `,Z(`b`,{children:X(e.status)}),e.redemptionCode&&Z(y,{children:[` · `,e.redemptionCode]})]}))})]})}function yn({voucherId:e}){return e?Z(wn,{voucherId:e}):Z(y,{children:[Z(xn,{}),Z(bn,{})]})}function bn(){let[e,t]=L(null);R(()=>{J(G(`query MySales { myShops { id name vouchers { id title kind stock beginTime endTime reminderCount } } }`)).then(e=>t(e.myShops)).catch(()=>t([]))},[]);let n=ft(),r=(e||[]).flatMap(e=>e.vouchers.filter(e=>e.kind===`FLASH_SALE`).map(t=>({...t,shop:e})));return r.length===0?null:Z(`section`,{class:`my-sales`,children:[Z(`h2`,{children:X(`mySales`)}),Z(`ul`,{children:r.map(e=>{let t=Date.parse(e.beginTime);return Z(`li`,{class:`my-sale`,"data-voucher":e.id,children:Z(`a`,{href:`#/board/${e.id}`,class:`shop-link`,children:[Z(`b`,{children:e.title}),Z(`span`,{children:[e.shop.name,` · `,X(`left`),` `,e.stock,` · `,n<t?Z(y,{children:[X(`startsIn`),` `,ut(t-n)]}):n>Date.parse(e.endTime)?X(`ended`):X(`started`),` · `,Z(`span`,{class:`nowrap`,children:[Z(`b`,{class:`reminder-count`,"data-count":e.reminderCount??0,children:e.reminderCount??0}),` `,X(`remindersSet`)]})]})]})})})})]})}function xn(){let[e,t]=L(``);return Z(`form`,{class:`card`,onSubmit:async e=>{e.preventDefault(),t(``);let n=new FormData(e.currentTarget),r=new Date(Date.now()+Number(n.get(`startsIn`))*1e3);try{let e=await J(G(`mutation CreateFlashSale($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`),{in:{shopId:n.get(`shop`),title:n.get(`title`),payValue:Math.round(Number(n.get(`price`))*100),actualValue:Math.round(Number(n.get(`worth`))*100),stock:Number(n.get(`stock`)),buckets:Number(n.get(`buckets`)),beginTime:r.toISOString(),endTime:new Date(r.getTime()+36e5).toISOString()}});location.hash=`#/board/`+e.createFlashSale.id}catch(e){t(e.message)}},children:[Z(`h1`,{children:X(`newSale`)}),Z(`label`,{children:[X(`shopId`),` `,Z(`input`,{name:`shop`,id:`sale-shop`,required:!0,inputMode:`numeric`})]}),Z(`label`,{children:[X(`title`),` `,Z(`input`,{name:`title`,id:`sale-title`,required:!0})]}),Z(`label`,{children:[X(`price`),` `,Z(`input`,{name:`price`,id:`sale-price`,type:`number`,step:`0.01`,min:`0`,value:`9.9`})]}),Z(`label`,{children:[X(`worth`),` `,Z(`input`,{name:`worth`,type:`number`,step:`0.01`,min:`0`,value:`20`})]}),Z(`label`,{children:[X(`stock`),` `,Z(`input`,{name:`stock`,id:`sale-stock`,type:`number`,min:`1`,value:`100`})]}),Z(`label`,{children:[X(`buckets`),` `,Z(`input`,{name:`buckets`,id:`sale-buckets`,type:`number`,min:`1`,value:`1`})]}),Z(`label`,{children:[X(`startsInSeconds`),` `,Z(`input`,{name:`startsIn`,type:`number`,min:`0`,value:`0`})]}),Z(`button`,{type:`submit`,id:`create-sale`,children:X(`create`)}),e&&Z(`p`,{role:`alert`,class:`error`,children:e})]})}var $={left:34,top:8,w:300,h:70,bottom:18},Sn=3e4,Cn=e=>{let t=10**Math.floor(Math.log10(e));return[1,2,5,10].map(e=>e*t).find(t=>t>=e)};function wn({voucherId:e}){let[t,n]=L(``),[r,i]=L(null),[a,o]=L([]);R(()=>tt(G(`subscription SaleStats($v: ID!) { saleStats(voucherId: $v) {
      remaining accepted pending created paid used canceled failed claimsPerSecond at } }`),{v:e},e=>{i(e.saleStats),o(t=>[...t.filter(t=>Date.parse(e.saleStats.at)-t.at<=Sn),{at:Date.parse(e.saleStats.at),rate:e.saleStats.claimsPerSecond}])},e=>n(e.message)),[e]);let s=Cn(Math.max(1,...a.map(e=>e.rate))),c=a.length?a[a.length-1].at:0,l=e=>$.left+$.w*(1-(c-e)/Sn),u=e=>$.top+$.h-e/s*$.h,d=a.map(e=>`${l(e.at).toFixed(1)},${u(e.rate).toFixed(1)}`).join(` `);return Z(`section`,{children:[Z(`h1`,{children:[X(`board`),` #`,e]}),t&&Z(`p`,{role:`alert`,class:`error`,children:t}),r&&Z(`dl`,{class:`stats`,children:[[`remaining`,`accepted`,`pending`,`created`,`paid`,`used`,`canceled`].map(e=>Z(`div`,{children:[Z(`dt`,{children:X(`s_`+e)}),Z(`dd`,{id:`stat-`+e,children:r[e]})]})),Z(`div`,{children:[Z(`dt`,{children:X(`s_rate`)}),Z(`dd`,{id:`stat-rate`,children:r.claimsPerSecond.toFixed(1)})]})]}),Z(`svg`,{viewBox:`0 0 ${$.left+$.w+8} ${$.top+$.h+$.bottom}`,class:`chart`,role:`img`,"aria-label":X(`s_rate`),children:[[0,.5,1].map(e=>Z(`g`,{class:`grid`,children:[Z(`line`,{x1:$.left,y1:u(s*e),x2:$.left+$.w,y2:u(s*e)}),Z(`text`,{x:$.left-4,y:u(s*e)+3,"text-anchor":`end`,class:`tick y-tick`,children:+(s*e).toFixed(1)})]})),Z(`line`,{class:`axis`,x1:$.left,y1:$.top,x2:$.left,y2:$.top+$.h}),Z(`line`,{class:`axis`,x1:$.left,y1:$.top+$.h,x2:$.left+$.w,y2:$.top+$.h}),Z(`text`,{x:$.left,y:$.top+$.h+13,class:`tick x-tick`,children:[`−`,Sn/1e3,`s`]}),Z(`text`,{x:$.left+$.w/2,y:$.top+$.h+13,"text-anchor":`middle`,class:`tick axis-label`,children:X(`s_rate`)}),Z(`text`,{x:$.left+$.w,y:$.top+$.h+13,"text-anchor":`end`,class:`tick x-tick`,children:X(`now`)}),Z(`polyline`,{fill:`none`,stroke:`#c81d25`,"stroke-width":`2`,points:d})]})]})}G(`fragment NoteItem on Blog { id title rating likedCount commentCount author { nickName } shop { name } }`);var Tn=G(`query FeedPage($a: String) { page: feed(first: 10, after: $a) { edges { node { ...NoteItem } } pageInfo { hasNextPage endCursor } } }`),En=G(`query HotPage($a: String) { page: hotBlogs(first: 10, after: $a) { edges { node { ...NoteItem } } pageInfo { hasNextPage endCursor } } }`),Dn=G(`mutation Follow($u: ID!) { follow(userId: $u) }`),On=G(`mutation LikeBlog($id: ID!) { likeBlog(id: $id) { id } }`),kn=G(`mutation UnlikeBlog($id: ID!) { unlikeBlog(id: $id) { id } }`),An=G(`mutation Unfollow($u: ID!) { unfollow(userId: $u) }`);function jn(){let[e,t]=L(q.access?`feed`:`hot`),[n,r]=L([]),[i,a]=L(void 0),[o,s]=L(null),c=async t=>{let n=await J(e===`feed`?Tn:En,{a:t||null});r(e=>[...t?e:[],...n.page.edges.map(e=>e.node)]),a(n.page.pageInfo.hasNextPage?n.page.pageInfo.endCursor:null)};return R(()=>{r([]),c(null)},[e]),R(()=>{if(!o||!i)return;let e=new IntersectionObserver(e=>{e[0].isIntersecting&&c(i)});return e.observe(o),()=>e.disconnect()},[o,i]),Z(`section`,{children:[Z(`div`,{class:`types`,role:`tablist`,children:[q.access&&Z(`button`,{role:`tab`,"aria-selected":e===`feed`,onClick:()=>t(`feed`),children:X(`feed`)}),Z(`button`,{role:`tab`,"aria-selected":e===`hot`,onClick:()=>t(`hot`),children:X(`hot`)}),q.access&&Z(`a`,{class:`button`,href:`#/write`,id:`write-note`,children:X(`write`)})]}),Z(`ul`,{class:`notes`,children:n.map(e=>Z(`li`,{children:Z(`a`,{href:`#/note/${e.id}`,class:`shop-link`,children:[Z(`b`,{children:e.title}),Z(`span`,{children:[e.author.nickName,` · `,e.shop?.name,e.rating?` · `+`★`.repeat(e.rating):``,` · ♥`,e.likedCount,` · 💬`,e.commentCount]})]})}))}),i&&Z(`div`,{ref:s,class:`sentinel`,children:`…`})]})}function Mn({id:e}){let[t,n]=L(null),[r,i]=L([]),[a,o]=L(``),[s,c]=L(``),l=()=>J(G(`query Blog($id: ID!) { blog(id: $id) { id title content images { url width height } rating likedCount likedByMe
      author { id nickName icon isFollowedByMe } shop { id name }
      comments(first: 20) { edges { node { id content author { nickName } replies(first: 5) { edges { node { id content author { nickName } replyToUser { nickName } } } } } } } }
      blogLikers(blogId: $id) { nickName } }`),{id:e}).then(e=>{n(e.blog),i(e.blogLikers)});R(()=>{l()},[e]);let u=async(e,t)=>{c(``);try{await J(e,t),await l()}catch(e){c(X(e.code)===e.code?e.message:X(e.code))}};if(!t)return Z(`p`,{children:`…`});let d=q.user;return Z(`article`,{children:[Z(`h1`,{children:t.title}),Z(`p`,{class:`meta`,children:[t.author.icon&&Z(`img`,{src:t.author.icon,alt:``,class:`avatar`,width:`24`,height:`24`}),t.author.nickName,` · `,Z(`a`,{href:`#/shop/${t.shop?.id}`,children:t.shop?.name}),t.rating?` · `+`★`.repeat(t.rating):``]}),t.images.map(e=>Z(pt,{img:e,class:`note-image`})),Z(`p`,{class:`content`,children:t.content}),Z(`p`,{children:[Z(`button`,{id:`like`,"aria-pressed":t.likedByMe,onClick:()=>u(t.likedByMe?kn:On,{id:e}),children:[`♥ `,t.likedCount]}),d&&d.id!==t.author.id&&Z(`button`,{id:`follow`,onClick:()=>u(t.author.isFollowedByMe?An:Dn,{u:t.author.id}),children:t.author.isFollowedByMe?X(`unfollow`):X(`follow`)})]}),Z(`p`,{class:`meta`,children:r.map(e=>e.nickName).join(`、`)}),Z(`h2`,{children:X(`comments`)}),Z(`ul`,{class:`comments`,children:t.comments.edges.map(({node:e})=>Z(`li`,{children:[Z(`b`,{children:e.author.nickName}),`: `,e.content,Z(`ul`,{children:e.replies.edges.map(({node:e})=>Z(`li`,{children:[Z(`b`,{children:e.author.nickName}),` → `,e.replyToUser?.nickName,`: `,e.content]}))})]}))}),d&&Z(`form`,{onSubmit:t=>{t.preventDefault(),u(G(`mutation CreateComment($b: ID!, $c: String!) { createComment(blogId: $b, content: $c) { id } }`),{b:e,c:a}).then(()=>o(``))},children:[Z(`label`,{children:[X(`comment`),` `,Z(`input`,{id:`comment`,value:a,onInput:e=>o(e.currentTarget.value),maxLength:1e3})]}),Z(`button`,{type:`submit`,children:X(`send`)})]}),s&&Z(`p`,{role:`alert`,class:`error`,children:s})]})}var Nn=G(`mutation UploadImage($f: Upload!) { uploadImage(file: $f) { url } }`);function Pn(){let[e,t]=L(``);return Z(`form`,{class:`card`,onSubmit:async e=>{e.preventDefault(),t(``);let n=new FormData(e.currentTarget);try{let e=[],t=n.get(`photo`);if(t&&t.size>0){let n=new FormData;n.append(`operations`,JSON.stringify({query:String(Nn),variables:{f:null}})),n.append(`map`,JSON.stringify({0:[`variables.f`]})),n.append(`0`,t,t.name);let r=await(await fetch(`/graphql`,{method:`POST`,headers:{Authorization:`Bearer `+q.access,"GraphQL-Require-Preflight":`1`},body:n})).json();if(r.errors?.length)throw Error(r.errors[0].message);e.push(r.data.uploadImage.url)}let r=await J(G(`mutation CreateBlog($in: CreateBlogInput!) { createBlog(input: $in) { id } }`),{in:{shopId:n.get(`shop`),title:n.get(`title`),content:n.get(`content`),images:e,rating:Number(n.get(`rating`))||null}});location.hash=`#/note/`+r.createBlog.id}catch(e){t(e.message)}},children:[Z(`h1`,{children:X(`write`)}),Z(`label`,{children:[X(`shopId`),` `,Z(`input`,{name:`shop`,id:`note-shop`,required:!0,inputMode:`numeric`})]}),Z(`label`,{children:[X(`title`),` `,Z(`input`,{name:`title`,id:`note-title`,required:!0,maxLength:80})]}),Z(`label`,{children:[X(`content`),` `,Z(`textarea`,{name:`content`,id:`note-content`,required:!0,maxLength:5e3,rows:5})]}),Z(`label`,{children:[X(`rating`),` `,Z(`select`,{name:`rating`,id:`note-rating`,children:[0,5,4,3,2,1].map(e=>Z(`option`,{value:e,children:e?`★`.repeat(e):`—`}))})]}),Z(`label`,{children:[X(`photo`),` `,Z(`input`,{type:`file`,name:`photo`,id:`note-photo`,accept:`image/jpeg,image/png,image/webp,image/gif`})]}),Z(`button`,{type:`submit`,id:`publish`,children:X(`publish`)}),e&&Z(`p`,{role:`alert`,class:`error`,children:e})]})}function Fn(){let[e,t]=L(null),n=()=>J(G(`query SignInStatus { signInStatus { month signedDays consecutiveDays } }`)).then(e=>t(e.signInStatus));if(R(()=>{n()},[]),!e)return Z(`p`,{children:`…`});let[r,i]=e.month.split(`-`).map(Number),a=new Date(r,i,0).getDate(),o=(new Date(r,i-1,1).getDay()+6)%7,s=new Set(e.signedDays);return Z(`section`,{children:[Z(`h1`,{children:[X(`signInDaily`),` `,e.month]}),Z(`p`,{children:[X(`streak`),`: `,Z(`b`,{id:`streak`,children:e.consecutiveDays})]}),Z(`button`,{id:`sign-in`,onClick:()=>J(G(`mutation SignIn{ signIn { month } }`)).then(n),children:X(`signInToday`)}),Z(`div`,{class:`calendar`,role:`grid`,children:[Array.from({length:o},()=>Z(`span`,{})),Array.from({length:a},(e,t)=>Z(`span`,{class:s.has(t+1)?`signed`:``,"aria-label":s.has(t+1)?`signed`:``,children:t+1}))]})]})}at(Y),N(Z(pn,{}),document.getElementById(`app`));