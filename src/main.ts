import { createPinia } from 'pinia'
import { createApp } from 'vue'
import App from './App.vue'
import { fillInLibraryAria } from './libraryAria'
import { releaseCheckboxSelectStart } from './librarySelectStart'

createApp(App).use(createPinia()).mount('#app')
// On the whole body: dialogs, drawers and popovers are teleported out of #app.
fillInLibraryAria()
releaseCheckboxSelectStart()
